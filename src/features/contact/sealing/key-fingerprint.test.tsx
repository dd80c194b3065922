// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { sealingKey } from '../../../content/sealing-key'
import { keySetId } from '../../../shared/submission/sealed-row'
import { KeyFingerprint } from './key-fingerprint'

// Recipients generated once with age-encryption (their identities were thrown away).
const STAFF = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'
const ESCROW = 'age1qv5gmwg854s6xwna57gp4qhpuqanmv4jzkevtvmgjd9d8p77va7q2wzr0z'

afterEach(cleanup)

const renderIn = (element: ReactElement) => render(<MemoryRouter>{element}</MemoryRouter>)

describe('KeyFingerprint', () => {
  it('names the key shortened in the sentence and whole, selectable, for comparison', () => {
    const { container } = renderIn(
      <KeyFingerprint keys={{ recipients: [STAFF], keyId: '0123456789abcdef' }} />,
    )
    expect(container.textContent).toContain(sealingKey.sealedTo(1))
    expect(screen.getByText('age163nrfh…sy33p0').getAttribute('title')).toBe(STAFF)
    const full = container.querySelector('details li code')
    expect(full?.textContent).toBe(STAFF)
    expect(full?.className).toContain('select-all')
    expect(
      screen.getByRole('link', { name: sealingKey.privacyLink.label }).getAttribute('href'),
    ).toBe('/privacy')
  })

  it('lists every key during a rotation', () => {
    const { container } = renderIn(
      <KeyFingerprint
        keys={{ recipients: [STAFF, ESCROW], keyId: '0123456789abcdef' }}
        linkToPrivacy={false}
      />,
    )
    expect(container.textContent).toContain(sealingKey.sealedTo(2))
    expect(
      [...container.querySelectorAll('details li code')].map((code) => code.textContent),
    ).toEqual([STAFF, ESCROW])
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('shows the key set’s fingerprint, the one npm run keygen prints, and where to compare it', async () => {
    const keyId = await keySetId([STAFF])
    const { container } = renderIn(<KeyFingerprint keys={{ recipients: [STAFF], keyId }} />)
    const shown = container.querySelector('[data-key-fingerprint]')?.textContent
    expect(shown).toBe(keyId.match(/.{4}/g)?.join(' '))
    expect(container.textContent).toContain(sealingKey.fingerprintLabel)
    expect(container.textContent).toContain('pinned post of our Telegram channel')
    expect(container.textContent).toMatch(/DNS TXT record of _contact-key\./)
    // Computed again in the browser from the recipients the form seals to: they agree.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('warns not to send when the keys the form seals to do not give the fingerprint shown', async () => {
    renderIn(
      <KeyFingerprint keys={{ recipients: [STAFF, ESCROW], keyId: await keySetId([STAFF]) }} />,
    )
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', sealingKey.mismatch)
  })

  it('says plainly when the build has no key', () => {
    const { container } = renderIn(<KeyFingerprint keys={null} />)
    expect(container.textContent).toContain(sealingKey.missing)
    expect(container.querySelector('code')).toBeNull()
  })
})
