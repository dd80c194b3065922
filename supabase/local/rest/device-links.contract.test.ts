// @vitest-environment node
import { generateX25519Identity } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  newOneTimeKey,
  openKeySet,
  sealKeySet,
  type OneTimeKey,
} from '../../../src/inbox/features/devices/device-link'
import type { LocalBackend } from '../local-backend'
import { clientFor, signedInStaff, testBackends, type TestClient } from '../test-support'

/**
 * Adding a device (issue 25) as the inbox calls it, through the real supabase-js client, on every
 * backend the stand-in runs on: the new device opens a link for its one-time key, a colleague's
 * unlocked device finds it by the linking code and seals the key set to it, and the new device
 * takes it once. Anon and staff at aal1 reach nothing; an expired link is gone.
 */

/** The key set an unlocked device hands over: here, two fresh identities. */
let KEY_SET: string[] = []

type Client = TestClient

const fingerprint = (key: OneTimeKey) => key.code.replaceAll(' ', '-')

describe.each(testBackends())('device links on $name', ({ start }) => {
  let started: Awaited<ReturnType<typeof start>>
  let backend: LocalBackend
  let newDevice: Client
  let unlocked: Client

  beforeAll(async () => {
    KEY_SET = [await generateX25519Identity(), await generateX25519Identity()]
    started = await start()
    backend = started.backend
    newDevice = await signedInStaff(backend, 'new-phone@example.com')
    unlocked = await signedInStaff(backend, 'colleague@example.com')
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })

  async function open(key: OneTimeKey): Promise<string> {
    const opened = await newDevice.rpc('device_link_open', {
      recipient: key.recipient,
      fingerprint: fingerprint(key),
    })
    expect(opened).toMatchObject({ error: null, status: 200 })
    return opened.data ?? ''
  }

  it('links: opened, found by the code, sealed, taken once with the same comparison code', async () => {
    const key = await newOneTimeKey()
    const id = await open(key)
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await newDevice.rpc('device_link_take', { link_id: id })).toMatchObject({
      data: { state: 'waiting' },
      status: 200,
    })

    const found = await unlocked.rpc('device_link_recipient', { fingerprint: fingerprint(key) })
    expect(found).toMatchObject({ data: key.recipient, error: null, status: 200 })
    const { sealed, comparison } = await sealKeySet(KEY_SET, key.recipient)
    const stored = await unlocked.rpc('device_link_seal', {
      fingerprint: fingerprint(key),
      recipient: key.recipient,
      sealed,
    })
    expect(stored).toMatchObject({ data: true, error: null, status: 200 })
    // Sealed once: a second key set is not stored, and the code names no waiting link any more.
    const again = await unlocked.rpc('device_link_seal', {
      fingerprint: fingerprint(key),
      recipient: key.recipient,
      sealed: (await sealKeySet(KEY_SET, key.recipient)).sealed,
    })
    expect(again.data).toBe(false)
    expect(
      (await unlocked.rpc('device_link_recipient', { fingerprint: fingerprint(key) })).data,
    ).toBeNull()

    // Only the account that opened it takes it.
    expect((await unlocked.rpc('device_link_take', { link_id: id })).data).toEqual({
      state: 'gone',
    })
    const taken = await newDevice.rpc('device_link_take', { link_id: id })
    expect(taken).toMatchObject({ data: { state: 'sealed', sealed }, status: 200 })
    const opened = await openKeySet(key, sealed)
    expect(opened).toEqual({ identities: KEY_SET, comparison })
    expect((await newDevice.rpc('device_link_take', { link_id: id })).data).toEqual({
      state: 'gone',
    })
    const [left] = await backend.db.query<{ count: number }>(
      'select count(*)::integer as count from public.device_links where id = $1',
      [id],
    )
    expect(left?.count).toBe(0)
  })

  it('refuses anon and staff at aal1; a recipient that does not match the code seals nothing', async () => {
    const key = await newOneTimeKey()
    const anon = await clientFor(backend).rpc('device_link_open', {
      recipient: key.recipient,
      fingerprint: fingerprint(key),
    })
    expect(anon.status).toBe(401)
    const aal1 = await signedInStaff(backend, 'half-signed-in@example.com', { aal1: true })
    const refused = await aal1.rpc('device_link_open', {
      recipient: key.recipient,
      fingerprint: fingerprint(key),
    })
    expect(refused.status).toBe(403)
    expect(refused.error?.code).toBe('42501')

    const id = await open(key)
    expect(
      (await aal1.rpc('device_link_recipient', { fingerprint: fingerprint(key) })).data,
    ).toBeNull()
    const other = await newOneTimeKey()
    const wrong = await unlocked.rpc('device_link_seal', {
      fingerprint: fingerprint(key),
      recipient: other.recipient,
      sealed: (await sealKeySet(KEY_SET, other.recipient)).sealed,
    })
    expect(wrong.data).toBe(false)
    expect((await newDevice.rpc('device_link_cancel', { link_id: id })).data).toBe(true)
    expect((await newDevice.rpc('device_link_take', { link_id: id })).data).toEqual({
      state: 'gone',
    })
  })

  it('forgets a link after 10 minutes: no recipient, nothing to take, the row purged', async () => {
    const key = await newOneTimeKey()
    const id = await open(key)
    await backend.db.query(
      `update public.device_links
          set created_at = now() - interval '11 minutes', expires_at = now() - interval '1 minute'
        where id = $1`,
      [id],
    )
    expect(
      (await unlocked.rpc('device_link_recipient', { fingerprint: fingerprint(key) })).data,
    ).toBeNull()
    expect((await newDevice.rpc('device_link_take', { link_id: id })).data).toEqual({
      state: 'gone',
    })
    const [left] = await backend.db.query<{ count: number }>(
      'select count(*)::integer as count from public.device_links',
    )
    expect(left?.count).toBe(0)
  })
})
