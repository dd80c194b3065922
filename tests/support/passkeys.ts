import type { CDPSession, Page } from '@playwright/test'

/**
 * Chromium's virtual platform authenticator with the PRF extension, on one page (it is per tab),
 * as a phone's fingerprint or face unlock behaves: user verification always succeeds, no prompt.
 * WebAuthn needs a domain: open the inbox at localhost, not 127.0.0.1.
 */
export async function addPrfAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}
