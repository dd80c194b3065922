// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import type { ReactElement } from 'react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { sealingKey } from '../../../content/sealing-key'
import { submissionKeysFor } from '../../../lib/env'
import { KeyFingerprint } from './key-fingerprint'

// Recipients generated once with age-encryption (their identities were thrown away).
const STAFF = 'age163nrfhucxd064xnq2cp4fn7p2pwkfu6zs33y9akjjgkc4f8jupyssy33p0'
const ESCROW = 'age1qv5gmwg854s6xwna57gp4qhpuqanmv4jzkevtvmgjd9d8p77va7q2wzr0z'
const SIGNING = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const SOME_ID = '0123456789abcdef'

afterEach(cleanup)

const renderIn = (element: ReactElement) => render(<MemoryRouter>{element}</MemoryRouter>)

describe('KeyFingerprint', () => {
  it('names the key shortened in the sentence and whole, selectable, for comparison', () => {
    const { container } = renderIn(
      <KeyFingerprint
        keys={{ recipients: [STAFF], keyId: SOME_ID, signingKeys: [], fingerprintId: SOME_ID }}
      />,
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

  it('lists every key during a rotation, the signing key with them', () => {
    const { container } = renderIn(
      <KeyFingerprint
        keys={{
          recipients: [STAFF, ESCROW],
          keyId: SOME_ID,
          signingKeys: [SIGNING],
          fingerprintId: SOME_ID,
        }}
        linkToPrivacy={false}
      />,
    )
    expect(container.textContent).toContain(sealingKey.sealedTo(2))
    expect(
      [...container.querySelectorAll('details li code')].map((code) => code.textContent),
    ).toEqual([STAFF, ESCROW, SIGNING])
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('shows the key set’s fingerprint, the one npm run keygen prints, and where to compare it', async () => {
    const keys = (await submissionKeysFor([STAFF], [SIGNING]))!
    const { container } = renderIn(<KeyFingerprint keys={keys} />)
    const shown = container.querySelector('[data-key-fingerprint]')?.textContent
    expect(shown).toBe(keys.fingerprintId.match(/.{4}/g)?.join(' '))
    expect(container.textContent).toContain(sealingKey.fingerprintLabel)
    expect(container.textContent).toContain('pinned post of our Telegram channel')
    expect(container.textContent).toMatch(/DNS TXT record of _contact-key\./)
    // Computed again in the browser from the recipients the form seals to: they agree.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('warns not to send when the keys the form seals to do not give the fingerprint shown', async () => {
    const published = (await submissionKeysFor([STAFF], [SIGNING]))!
    renderIn(<KeyFingerprint keys={{ ...published, recipients: [STAFF, ESCROW] }} />)
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', sealingKey.mismatch)
  })

  it('warns not to send when the signing key is not the one the fingerprint covers', async () => {
    const published = (await submissionKeysFor([STAFF], [SIGNING]))!
    renderIn(<KeyFingerprint keys={{ ...published, signingKeys: ['f'.repeat(64)] }} />)
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', sealingKey.mismatch)
  })

  it('says plainly when the build has no key', () => {
    const { container } = renderIn(<KeyFingerprint keys={null} />)
    expect(container.textContent).toContain(sealingKey.missing)
    expect(container.querySelector('code')).toBeNull()
  })
})
