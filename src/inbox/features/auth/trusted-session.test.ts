import { describe, expect, it } from 'vitest'
import { isInAppBrowser, sessionOutlived, signedInAt } from './trusted-session'

const token = (claims: object) =>
  `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.sig`
const DAY = 24 * 3600
const signedIn = 1_790_000_000

describe('the trusted period', () => {
  const aal2 = token({
    iat: signedIn + 20 * DAY,
    amr: [
      { method: 'totp', timestamp: signedIn + 60 },
      { method: 'password', timestamp: signedIn },
    ],
  })

  it('counts from the password sign-in (amr), not from the last refresh (iat)', () => {
    expect(signedInAt(aal2)).toBe(signedIn)
    expect(sessionOutlived(aal2, 30, (signedIn + 29 * DAY) * 1000)).toBe(false)
    expect(sessionOutlived(aal2, 30, (signedIn + 30 * DAY + 1) * 1000)).toBe(true)
  })

  it('follows the setting: 1 day', () => {
    expect(sessionOutlived(aal2, 1, (signedIn + DAY - 1) * 1000)).toBe(false)
    expect(sessionOutlived(aal2, 1, (signedIn + DAY + 1) * 1000)).toBe(true)
  })

  it('a token that does not say when it was signed into has outlived it', () => {
    expect(sessionOutlived(token({ iat: signedIn }), 30, signedIn * 1000)).toBe(true)
    expect(sessionOutlived('not a token', 30, signedIn * 1000)).toBe(true)
    expect(sessionOutlived('a.!!!.b', 30, signedIn * 1000)).toBe(true)
  })
})

describe('in-app browsers', () => {
  const safari =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
  const webView =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
  const androidTelegram =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36 Telegram-Android/11.2.2'
  const chrome =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36'

  it('Telegram’s, and an iOS web view, are told; Safari, Chrome and the installed app are not', () => {
    expect(isInAppBrowser(`${webView} Telegram`, false)).toBe(true)
    expect(isInAppBrowser(androidTelegram, false)).toBe(true)
    expect(isInAppBrowser(webView, false)).toBe(true)
    expect(isInAppBrowser(webView, true)).toBe(false)
    expect(isInAppBrowser(safari, false)).toBe(false)
    expect(isInAppBrowser(chrome, false)).toBe(false)
  })
})
