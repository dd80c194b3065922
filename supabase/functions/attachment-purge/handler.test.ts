// @vitest-environment node
import { randomBytes, randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startLocalBackend, type LocalBackend } from '../../local/local-backend'
import { objectFile } from '../../local/storage/files'
import { handleAttachmentPurge } from './handler'

/**
 * The Edge Function's handler against the local stand-in's real REST and Storage APIs: with the
 * right secret it removes what the queue holds through the Storage API, as the service role; with
 * a wrong or missing secret it touches nothing.
 */

const SECRET = 'purge-secret-0123456789abcdef'
let backend: LocalBackend

beforeAll(async () => {
  backend = await startLocalBackend({ apiPort: 0, dbPort: null, backendDir: 'memory' })
}, 60_000)
afterAll(async () => {
  await backend?.close()
})

const call = (secret?: string) =>
  handleAttachmentPurge(
    new Request('http://127.0.0.1/attachment-purge', {
      method: 'POST',
      headers: secret === undefined ? {} : { 'x-attachment-purge-secret': secret },
      body: '{}',
    }),
    {
      ATTACHMENT_PURGE_SECRET: SECRET,
      SUPABASE_URL: backend.url,
      SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
    },
    { log: () => {} },
  )

it('removes the queued objects through the Storage API, only for the shared secret', async () => {
  const name = `${randomUUID()}/${randomUUID()}`
  const anon = { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` }
  const reserved = await fetch(`${backend.url}/rest/v1/rpc/reserve_attachment`, {
    method: 'POST',
    headers: { ...anon, 'content-type': 'application/json' },
    body: JSON.stringify({ object_name: name, byte_count: 100 }),
  })
  expect(reserved.status).toBe(204)
  const upload = await fetch(`${backend.url}/storage/v1/object/contact-attachments/${name}`, {
    method: 'POST',
    headers: { ...anon, 'content-type': 'application/octet-stream' },
    body: randomBytes(100),
  })
  expect(upload.status).toBe(200)
  const [row] = await backend.db.query<{ version: string }>(
    'select version from storage.objects where name = $1',
    [name],
  )
  const file = objectFile(backend.storageDir, 'contact-attachments', name, row!.version)
  // Queued directly (no notification), so only the handler can remove it.
  await backend.db.query(
    `insert into private.attachment_removals (bucket_id, name) values ('contact-attachments', $1)`,
    [name],
  )

  expect((await call()).status).toBe(403)
  expect((await call('wrong-secret')).status).toBe(403)
  expect(await stat(file).then(() => true)).toBe(true)

  const response = await call(SECRET)
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ removed: 1 })
  expect(
    await stat(file).then(
      () => true,
      () => false,
    ),
  ).toBe(false)
  expect(await backend.db.query('select from storage.objects where name = $1', [name])).toEqual([])
  expect(await backend.db.query('select from private.attachment_removals')).toEqual([])
})

it('refuses to run unconfigured', async () => {
  const response = await handleAttachmentPurge(
    new Request('http://127.0.0.1/attachment-purge', { method: 'POST' }),
    {},
    { log: () => {} },
  )
  expect(response.status).toBe(500)
})
