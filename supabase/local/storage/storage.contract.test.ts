// @vitest-environment node
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  CONVERSATION_FILES_BUCKET,
  MAILBOX_TOKEN_HEADER,
  replyFileObjectName,
} from '../../../src/shared/conversation/reply-files'
import { ATTACHMENT_LIMITS, ATTACHMENTS_BUCKET } from '../../../src/shared/submission/attachments'
import type { LocalBackend } from '../local-backend'
import { objectFile } from './files'
import {
  clientFor,
  NoRealtimeSocket,
  registerTestKey,
  signedInStaff,
  testBackends,
} from '../test-support'

/**
 * Sealed files (issue 26) as the site and the inbox call Storage, with the real supabase-js and
 * the real tus-js-client, on every backend the stand-in runs on: anon uploads (standard and
 * resumable, a cut upload resumed from its offset) and nothing else, staff at aal2 download,
 * the database's limits and policies answered as Storage answers them, and the purge removing
 * the files through the Storage API. Then the conversation's files: staff upload a reply's files
 * under an open thread, the visitor reads them with the mailbox token in a header (the policy
 * reads request.headers, as on Supabase), nobody else reads or lists them, and they go with
 * their inquiry or as orphans.
 */

const BUCKET = ATTACHMENTS_BUCKET
const CHUNK = 6 * 1024 * 1024
const OCTETS = { contentType: 'application/octet-stream', upsert: false }

type Client = SupabaseClient

const objectName = (submission = randomUUID()) => `${submission}/${randomUUID()}`

/** What supabase-js reports for a refusal: HTTP status, Storage's statusCode and message. */
function refusal(error: unknown) {
  const { status, statusCode, message } = (error ?? {}) as Record<string, unknown>
  return { status, statusCode, message }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

/** Waits for `check` to hold (the removal runs on a notification, asynchronously). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return check()
}

/**
 * A resumable upload as the site makes it (FILES.md), resolved with its URL or rejected; as the
 * inbox makes it with a staff `bearer` into another `bucket`.
 */
function resumable(
  backend: LocalBackend,
  name: string,
  bytes: Buffer,
  options: Partial<tus.UploadOptions> = {},
  { bearer = backend.anonKey, bucket = BUCKET, address = '' } = {},
): { upload: tus.Upload; done: Promise<string> } {
  const network: Record<string, string> = address ? { 'CF-Connecting-IP': address } : {}
  // The form's files are announced first, as the site does (their refusals are the upload's to see).
  const announced =
    bucket === BUCKET
      ? fetch(`${backend.url}/rest/v1/rpc/reserve_attachment`, {
          method: 'POST',
          headers: {
            apikey: backend.anonKey,
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/json',
            ...network,
          },
          body: JSON.stringify({ object_name: name, byte_count: bytes.length }),
        }).then((response) => response.body?.cancel())
      : Promise.resolve()
  let upload!: tus.Upload
  const done = new Promise<string>((resolve, reject) => {
    upload = new tus.Upload(bytes, {
      endpoint: `${backend.url}/storage/v1/upload/resumable`,
      headers: {
        authorization: `Bearer ${bearer}`,
        apikey: backend.anonKey,
        'x-upsert': 'false',
        ...network,
      },
      metadata: {
        bucketName: bucket,
        objectName: name,
        contentType: 'application/octet-stream',
        cacheControl: '3600',
      },
      chunkSize: CHUNK,
      uploadDataDuringCreation: true,
      removeFingerprintOnSuccess: true,
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(upload.url ?? ''),
      ...options,
    })
    void announced.then(() => upload.start(), reject)
  })
  return { upload, done }
}

/** Every line the backends log (the request log: method, path, status, time). */
const logLines: string[] = []
const backends = testBackends({ log: (line) => logLines.push(line) })

describe.each(backends)('Storage for sealed files on $name', ({ start }) => {
  let started: Awaited<ReturnType<typeof start>>
  let backend: LocalBackend
  let anon: Client
  let staff: Client
  let key: Awaited<ReturnType<typeof registerTestKey>>

  /** The site's announcement of one of the form's files, before its upload. */
  const announce = (name: string, bytes: number, client: Client = anon) =>
    client.rpc('reserve_attachment', { object_name: name, byte_count: bytes })
  /** One of the form's files as the site uploads it: announced, then sent. */
  const put = async (
    name: string,
    body: Buffer | Blob,
    client: Client = anon,
    options = OCTETS,
  ) => {
    await announce(name, body instanceof Blob ? body.size : body.length, client)
    return client.storage.from(BUCKET).upload(name, body, options)
  }

  const fileOf = async (name: string, bucket = BUCKET) => {
    const [row] = await backend.db.query<{ version: string }>(
      'select version from storage.objects where bucket_id = $1 and name = $2',
      [bucket, name],
    )
    return row ? objectFile(backend.storageDir, bucket, name, row.version) : null
  }

  /**
   * Ages the inquiry `inquiryId` past its 90 days and `orphan` (an upload whose row never came)
   * past a day, runs the daily purge, and tells whether the objects `removed` and their `files`
   * are then gone. The database's notification starts the removal; nothing else is called here.
   */
  async function purgeRemoves(
    inquiryId: string,
    orphan: string,
    removed: string[],
    files: (string | null)[],
  ): Promise<boolean> {
    await backend.db.query(
      `update public.contact_submissions set created_at = now() - interval '100 days' where id = $1`,
      [inquiryId],
    )
    await backend.db.query(
      `update storage.objects set created_at = now() - interval '25 hours' where name = $1`,
      [orphan],
    )
    await backend.db.query('select private.purge_contact_submissions()')
    return eventually(async () => {
      const left = await backend.db.query(
        'select name from storage.objects where name = any($1::text[])',
        [removed],
      )
      const present = await Promise.all(files.map((file) => exists(file!)))
      return left.length === 0 && present.every((found) => !found)
    })
  }

  beforeAll(async () => {
    started = await start()
    backend = started.backend
    anon = clientFor(backend)
    staff = await signedInStaff(backend, `staff-${randomUUID()}@example.com`)
    key = await registerTestKey(backend.db)
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })

  it('anon uploads sealed bytes (an array and a Blob), staff at aal2 download them unchanged', async () => {
    const bytes = randomBytes(200_000)
    const first = objectName()
    const uploaded = await put(first, bytes)
    expect(uploaded.error).toBeNull()
    expect(uploaded.data).toMatchObject({ path: first, fullPath: `${BUCKET}/${first}` })
    const second = objectName()
    const blob = new Blob([bytes], { type: 'application/octet-stream' })
    expect((await put(second, blob)).error).toBeNull()

    for (const name of [first, second]) {
      const file = await fileOf(name)
      expect(file && (await exists(file))).toBe(true)
      const downloaded = await staff.storage.from(BUCKET).download(name)
      expect(downloaded.error).toBeNull()
      expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(bytes)).toBe(true)
    }
    // The same object by the path for authenticated reads, with the staff token.
    const token = (await staff.auth.getSession()).data.session?.access_token
    const response = await fetch(
      `${backend.url}/storage/v1/object/authenticated/${BUCKET}/${first}`,
      {
        headers: { apikey: backend.anonKey, authorization: `Bearer ${token}` },
      },
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('anon cannot read, list, overwrite, update or delete objects, through Storage or REST', async () => {
    const name = objectName()
    const bytes = randomBytes(1000)
    expect((await put(name, bytes)).error).toBeNull()
    const file = await fileOf(name)

    const read = await anon.storage.from(BUCKET).download(name)
    expect(refusal(read.error)).toEqual({
      status: 400,
      statusCode: '404',
      message: 'Object not found',
    })
    const listed = await anon.storage.from(BUCKET).list(name.split('/')[0])
    expect(listed).toMatchObject({ data: [], error: null })
    expect((await anon.storage.from(BUCKET).list()).data).toEqual([])

    const again = await put(name, randomBytes(10))
    expect(refusal(again.error)).toEqual({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    })
    const upsert = await anon.storage
      .from(BUCKET)
      .upload(name, randomBytes(10), { ...OCTETS, upsert: true })
    expect(refusal(upsert.error)).toEqual({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    })
    const updated = await anon.storage.from(BUCKET).update(name, randomBytes(10), OCTETS)
    expect(refusal(updated.error)).toMatchObject({ status: 400, statusCode: '403' })

    expect(await anon.storage.from(BUCKET).remove([name])).toMatchObject({ data: [], error: null })
    const single = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${name}`, {
      method: 'DELETE',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}` },
    })
    // Storage finds the object as its superuser, then deletes as the requester: refused, not absent.
    expect(single.status).toBe(400)
    expect(await single.json()).toMatchObject({ statusCode: '403', message: 'Access denied' })

    // Nothing changed: the staff still read the original bytes from the same file.
    expect(file && (await exists(file))).toBe(true)
    const downloaded = await staff.storage.from(BUCKET).download(name)
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(bytes)).toBe(true)

    // REST: the storage schema is not exposed, and public has no such table.
    const viaProfile = await anon.schema('storage').from('objects').select('name')
    expect(viaProfile).toMatchObject({ status: 406, error: { code: 'PGRST106' } })
    const viaPublic = await anon.from('objects').select('name')
    expect(viaPublic.status).toBe(404)
    expect(viaPublic.data).toBeNull()
  })

  it('refuses what the bucket and the policy do not allow, as Storage does', async () => {
    const expectRefused = async (
      name: string,
      body: Buffer,
      expected: Record<string, unknown>,
      options = OCTETS,
    ) => {
      const { error } = await put(name, body, anon, options)
      expect(refusal(error)).toEqual({ status: 400, ...expected })
    }
    const rls = { statusCode: '403', message: 'new row violates row-level security policy' }
    await expectRefused(`${randomUUID()}/report.pdf`, randomBytes(10), rls)
    await expectRefused(randomUUID(), randomBytes(10), rls)
    await expectRefused(
      objectName(),
      randomBytes(10),
      {
        statusCode: '415',
        message: 'mime type application/pdf is not supported',
      },
      { contentType: 'application/pdf', upsert: false },
    )
    await expectRefused(objectName(), Buffer.alloc(28_311_553), {
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    })
    const other = await anon.storage.from('no-such-bucket').upload(objectName(), randomBytes(10))
    expect(refusal(other.error)).toEqual({
      status: 400,
      statusCode: '404',
      message: 'Bucket not found',
    })

    // Once the row is stored, its folder is closed.
    const row = key.sealedRow()
    expect((await anon.from('contact_submissions').insert(row)).error).toBeNull()
    await expectRefused(`${row.id}/${randomUUID()}`, randomBytes(10), rls)
  })

  it('checks a form upload’s policy before its size, with the request’s length, as Storage does', async () => {
    // The policy's bound is the bucket's, and a form's Content-Length counts its framing too.
    const atTheLimit = new Blob([Buffer.alloc(28_311_552)], { type: 'application/octet-stream' })
    const { error } = await anon.storage.from(BUCKET).upload(objectName(), atTheLimit, OCTETS)
    expect(refusal(error)).toEqual({
      status: 400,
      statusCode: '403',
      message:
        'Each file may be at most 28311552 bytes once sealed (limit: 26214400 bytes of plaintext per file).',
    })
    // Where no policy refuses (the service role), the bucket's own limit answers.
    const service = clientFor(backend, backend.serviceRoleKey)
    const over = new Blob([Buffer.alloc(28_311_553)], { type: 'application/octet-stream' })
    expect(
      refusal((await service.storage.from(BUCKET).upload(objectName(), over, OCTETS)).error),
    ).toEqual({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    })
  }, 60_000)

  it('streams a form past the bucket’s limit without holding it: memory stays flat for 120 MB', async () => {
    const boundary = `----probe${randomUUID()}`
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n3600\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name=""; filename="blob"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    )
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const total = 120_000_000
    const chunk = Buffer.alloc(1024 * 1024)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(head),
      pull: (controller) => {
        if (sent >= total) {
          controller.enqueue(tail)
          controller.close()
          return
        }
        const next = chunk.subarray(0, Math.min(chunk.length, total - sent))
        sent += next.length
        controller.enqueue(new Uint8Array(next))
      },
    })
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    try {
      const response = await fetch(`${backend.url}/storage/v1/object/${BUCKET}/${objectName()}`, {
        method: 'POST',
        headers: {
          apikey: backend.anonKey,
          authorization: `Bearer ${backend.serviceRoleKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
        duplex: 'half',
      } as RequestInit)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ statusCode: '413' })
    } finally {
      clearInterval(sampler)
    }
    expect(peak - before).toBeLessThan(64 * 1024 * 1024)
  }, 120_000)

  it('stores one of two uploads of one new name and refuses the other, never replacing it', async () => {
    const name = objectName()
    const first = Buffer.alloc(300_000, 'A')
    const second = Buffer.alloc(300_000, 'B')
    // The first passes the policy, then waits with most of its bytes unsent.
    let finishFirst!: () => void
    const held = new Promise<void>((resolve) => (finishFirst = resolve))
    const slow = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array(first.subarray(0, 1000))),
      pull: async (controller) => {
        await held
        controller.enqueue(new Uint8Array(first.subarray(1000)))
        controller.close()
      },
    })
    await announce(name, first.length)
    const firstAnswer = fetch(`${backend.url}/storage/v1/object/${BUCKET}/${name}`, {
      method: 'POST',
      headers: {
        apikey: backend.anonKey,
        authorization: `Bearer ${backend.anonKey}`,
        'content-type': 'application/octet-stream',
        'content-length': String(first.length),
      },
      body: slow,
      duplex: 'half',
    } as RequestInit)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect((await put(name, second)).error).toBeNull()
    finishFirst()
    const refused = await firstAnswer
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ statusCode: '409' })
    const stored = await staff.storage.from(BUCKET).download(name)
    expect(Buffer.from(await stored.data!.arrayBuffer()).equals(second)).toBe(true)
    // Hosted Storage writes the row with an upsert whatever the request said: the database
    // itself refuses to replace the stored object.
    await expect(
      backend.db.query(
        `insert into storage.objects (bucket_id, name, version, metadata) values ($1, $2, 'v2', '{}')
         on conflict (bucket_id, name) do update set version = excluded.version`,
        [BUCKET, name],
      ),
    ).rejects.toMatchObject({ code: '23505' })
  })

  it('answers bad names and malformed forms with 400 and a sentence, never a crash', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const send = (path: string, contentType: string, body: string) =>
        fetch(`${backend.url}/storage/v1/object/${BUCKET}/${path}`, {
          method: 'POST',
          headers: {
            apikey: backend.anonKey,
            authorization: `Bearer ${backend.anonKey}`,
            'content-type': contentType,
          },
          body,
        })
      const nul = await send(`${randomUUID()}/${randomUUID()}%00`, 'application/octet-stream', 'x')
      expect(nul.status).toBe(400)
      expect(await nul.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey' })
      for (const [contentType, body] of [
        ['multipart/form-data', 'garbage'],
        ['multipart/form-data; boundary=x', 'garbage'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nno file\r\n--x--\r\n',
        ],
      ] as const) {
        const response = await send(objectName(), contentType, body)
        expect(response.status).toBe(400)
        const answer = (await response.json()) as { statusCode: string; message: string }
        expect(answer.statusCode).toBe('400')
        expect(answer.message).toMatch(/^[A-Z].*\.$/)
      }
      expect(errors).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
    }
  })

  it('keeps the limits the form checks (src/shared/submission/attachments.ts) in the database', async () => {
    const limits = await backend.db.query<{ files: number; bytes: string; sealed: string }>(
      'select files_per_submission as files, bytes_per_file::text as bytes,' +
        ' bytes_per_file_sealed::text as sealed from private.attachment_limits',
    )
    expect(limits).toEqual([
      {
        files: ATTACHMENT_LIMITS.files,
        bytes: String(ATTACHMENT_LIMITS.bytesPerFile),
        sealed: expect.any(String) as string,
      },
    ])
    const bucket = await backend.db.query<{ size: string }>(
      'select file_size_limit::text as size from storage.buckets where id = $1',
      [BUCKET],
    )
    // The bucket takes a sealed file of the largest size the form lets through.
    expect(Number(bucket[0]?.size)).toBeGreaterThanOrEqual(Number(limits[0]?.sealed))
    expect(Number(limits[0]?.sealed)).toBeGreaterThan(ATTACHMENT_LIMITS.bytesPerFile)
  })

  it('holds the database limits when a file is announced: five files a submission, bytes per network', async () => {
    const submission = randomUUID()
    for (let n = 0; n < 5; n += 1)
      expect((await put(objectName(submission), randomBytes(100))).error).toBeNull()
    expect(await announce(objectName(submission), 100)).toMatchObject({
      status: 403,
      error: {
        code: 'attachment_too_many',
        message: 'Too many files for one submission (limit: 5 files).',
      },
    })
    // An upload nobody announced is refused by Storage itself, as the policy answers.
    const unannounced = await anon.storage
      .from(BUCKET)
      .upload(objectName(), randomBytes(100), OCTETS)
    expect(refusal(unannounced.error)).toEqual({
      status: 400,
      statusCode: '403',
      message:
        'This file was not announced before its upload, or is larger than announced: call reserve_attachment first.',
    })

    await backend.db.query('update private.attachment_limits set network_bytes = 5000')
    try {
      const network = clientFor(backend, backend.anonKey, '203.0.113.77')
      expect((await put(objectName(), randomBytes(4000), network)).error).toBeNull()
      expect(await announce(objectName(), 1001, network)).toMatchObject({
        status: 429,
        error: {
          code: 'attachment_network_limit',
          message: 'Too many files from this network. Try again later.',
        },
      })
      const elsewhere = clientFor(backend, backend.anonKey, '192.0.2.77')
      expect((await put(objectName(), randomBytes(1001), elsewhere)).error).toBeNull()
    } finally {
      await backend.db.query('update private.attachment_limits set network_bytes = 314572800')
    }
  })

  it('counts a resumable upload left unfinished against its network’s bytes until it expires', async () => {
    const address = '203.0.113.88'
    const network = clientFor(backend, backend.anonKey, address)
    const bytes = randomBytes(2 * CHUNK + 12_345)
    const name = objectName()
    await backend.db.query('update private.attachment_limits set network_bytes = $1', [3 * CHUNK])
    try {
      // The first chunk arrives, then the client goes away for good.
      let cut = false
      const parked = resumable(
        backend,
        name,
        bytes,
        {
          onChunkComplete: () => {
            cut = true
            void parked.upload.abort()
          },
        },
        { address },
      )
      await eventually(async () => cut)
      expect(await fileOf(name)).toBeNull()
      expect(await announce(objectName(), CHUNK, network)).toMatchObject({
        status: 429,
        error: { code: 'attachment_network_limit' },
      })
      // Announcing more than it reserved does not let it send more.
      const larger = await resumable(
        backend,
        name,
        Buffer.concat([bytes, bytes]),
        {},
        { address },
      ).done.then(
        () => null,
        (error: tus.DetailedError) => error,
      )
      expect(larger?.originalResponse?.getStatus()).toBe(403)

      // Once Storage's resumable upload has expired, its bytes no longer count.
      await backend.db.query(
        `update private.attachment_reservations set reserved_at = now() - interval '61 minutes'
          where name = $1`,
        [name],
      )
      expect(await announce(objectName(), CHUNK, network)).toMatchObject({ status: 204 })
    } finally {
      await backend.db.query('update private.attachment_limits set network_bytes = 314572800')
    }
  }, 60_000)

  it('takes a resumable upload in 6 MB chunks, resumes a cut one from its offset', async () => {
    const bytes = randomBytes(2 * CHUNK + 12_345)
    const name = objectName()
    // Cut after the first chunk (sent with the creation request).
    let cutAt: string | null = null
    const first = resumable(backend, name, bytes, {
      onChunkComplete: () => {
        cutAt = first.upload.url
        void first.upload.abort()
      },
    })
    await eventually(async () => cutAt !== null)
    expect(cutAt).toMatch(/\/storage\/v1\/upload\/resumable\/[A-Za-z0-9_-]+$/)
    expect(await fileOf(name)).toBeNull()

    const head = await fetch(cutAt!, {
      method: 'HEAD',
      headers: {
        'Tus-Resumable': '1.0.0',
        apikey: backend.anonKey,
        authorization: `Bearer ${backend.anonKey}`,
      },
    })
    expect(head.headers.get('upload-offset')).toBe(String(CHUNK))
    expect(head.headers.get('upload-length')).toBe(String(bytes.length))

    let resumedFrom: number | null = null
    const second = resumable(backend, name, bytes, {
      uploadUrl: cutAt,
      onProgress: (sent) => {
        resumedFrom ??= sent
      },
    })
    await second.done
    expect(resumedFrom).toBeGreaterThanOrEqual(CHUNK)

    const downloaded = await staff.storage.from(BUCKET).download(name)
    expect(downloaded.error).toBeNull()
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(bytes)).toBe(true)
  }, 60_000)

  it('lets a browser on another origin read what tus-js-client needs (CORS)', async () => {
    const name = objectName()
    await announce(name, 10)
    const metadata = Object.entries({
      bucketName: BUCKET,
      objectName: name,
      contentType: 'application/octet-stream',
      cacheControl: '3600',
    })
      .map(([field, value]) => `${field} ${Buffer.from(value).toString('base64')}`)
      .join(',')
    const created = await fetch(`${backend.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': metadata,
        apikey: backend.anonKey,
        authorization: `Bearer ${backend.anonKey}`,
      },
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = (created.headers.get('access-control-expose-headers') ?? '').split(/,\s*/)
    expect(exposed).toEqual(expect.arrayContaining(['Location', 'Upload-Offset', 'Tus-Resumable']))
    const preflight = await fetch(created.headers.get('location')!, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'tus-resumable,upload-offset,content-type,x-upsert',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('upload-offset')
  })

  it('refuses a resumable upload the policy refuses, with Storage’s status', async () => {
    const row = key.sealedRow()
    expect((await anon.from('contact_submissions').insert(row)).error).toBeNull()
    const refused = await resumable(
      backend,
      `${row.id}/${randomUUID()}`,
      randomBytes(1000),
    ).done.then(
      () => null,
      (error: tus.DetailedError) => error,
    )
    expect(refused?.originalResponse?.getStatus()).toBe(403)
    expect(refused?.originalResponse?.getBody()).toBe('new row violates row-level security policy')

    const bad = await resumable(backend, `${randomUUID()}/notes.txt`, randomBytes(1000)).done.then(
      () => null,
      (error: tus.DetailedError) => error,
    )
    expect(bad?.originalResponse?.getStatus()).toBe(403)

    // Past the bucket's limit (27 MiB), refused at creation, before any byte is sent.
    const tooLarge = await fetch(`${backend.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '28311553',
        'upload-metadata': `bucketName ${Buffer.from(BUCKET).toString('base64')},objectName ${Buffer.from(objectName()).toString('base64')}`,
        apikey: backend.anonKey,
        authorization: `Bearer ${backend.anonKey}`,
      },
    })
    expect(tooLarge.status).toBe(413)
  })

  it('removes the files with their inquiry, and day-old orphans, through the Storage API', async () => {
    const row = key.sealedRow()
    const names = [objectName(row.id), objectName(row.id)]
    for (const name of names) expect((await put(name, randomBytes(500))).error).toBeNull()
    expect((await anon.from('contact_submissions').insert(row)).error).toBeNull()
    const orphan = objectName()
    expect((await put(orphan, randomBytes(500))).error).toBeNull()
    const fresh = objectName()
    expect((await put(fresh, randomBytes(500))).error).toBeNull()
    const files = await Promise.all([...names, orphan, fresh].map((name) => fileOf(name)))
    for (const file of files) expect(file && (await exists(file))).toBe(true)

    expect(await purgeRemoves(row.id, orphan, [...names, orphan], files.slice(0, 3))).toBe(true)
    expect(await backend.db.query('select name from private.attachment_removals')).toEqual([])
    // The fresh upload without its row yet stays.
    expect(await exists(files[3]!)).toBe(true)
  })

  // ---------------------------------------------------------------- the conversation's files

  const REPLIES = CONVERSATION_FILES_BUCKET

  /** An inquiry with a thread, as the form sends it: its id and its mailbox token. */
  async function newThread() {
    const token = randomBytes(32)
    const row = key.sealedRow({
      mailbox_hash: `\\x${createHash('sha256').update(token).digest('hex')}`,
    })
    expect((await anon.from('contact_submissions').insert(row)).error).toBeNull()
    return { id: String(row.id), token: token.toString('hex') }
  }

  /** The staff reply listing the files, stored last, as the inbox stores it. */
  async function storeReply(inquiryId: string, messageId: string) {
    const reply = { id: messageId, submission_id: inquiryId, sealed: key.sealedRow().sealed }
    expect((await staff.from('contact_messages').insert(reply)).error).toBeNull()
  }

  /** Storage as the visitor's page calls it: the site's anon client, the token in its header. */
  const visitorFiles = (token: string | null) => {
    const files = anon.storage.from(REPLIES)
    return token === null ? files : files.setHeader(MAILBOX_TOKEN_HEADER, token)
  }

  const staffToken = async () => (await staff.auth.getSession()).data.session?.access_token ?? ''

  it('staff upload a reply’s files (standard and resumable); with the token the visitor reads them once the reply is stored', async () => {
    const thread = await newThread()
    const message = randomUUID()
    const small = randomBytes(150_000)
    const large = randomBytes(CHUNK + 54_321)
    const first = replyFileObjectName(thread.id, message, randomUUID())
    const second = replyFileObjectName(thread.id, message, randomUUID())
    expect((await staff.storage.from(REPLIES).upload(first, small, OCTETS)).error).toBeNull()
    await resumable(backend, second, large, {}, { bearer: await staffToken(), bucket: REPLIES })
      .done

    // Uploaded, not yet sent: the visitor sees nothing of a reply that is not stored.
    expect(refusal((await visitorFiles(thread.token).download(first)).error)).toMatchObject({
      statusCode: '404',
    })
    expect(await visitorFiles(thread.token).list(thread.id)).toMatchObject({ data: [] })

    await storeReply(thread.id, message)
    for (const [name, bytes] of [
      [first, small],
      [second, large],
    ] as const) {
      const downloaded = await visitorFiles(thread.token).download(name)
      expect(downloaded.error).toBeNull()
      expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(bytes)).toBe(true)
    }
    // Listing with the token shows that thread's folder, its reply's folder, its two files.
    const root = await visitorFiles(thread.token).list()
    expect(root.data?.map((entry) => entry.name)).toEqual([thread.id])
    const folders = await visitorFiles(thread.token).list(thread.id)
    expect(folders.data?.map((entry) => entry.name)).toEqual([message])
    const files = await visitorFiles(thread.token).list(`${thread.id}/${message}`)
    expect(files.data?.map((entry) => `${thread.id}/${message}/${entry.name}`).sort()).toEqual(
      [first, second].sort(),
    )
    // Staff read them too.
    const staffRead = await staff.storage.from(REPLIES).download(second)
    expect(Buffer.from(await staffRead.data!.arrayBuffer()).equals(large)).toBe(true)
    // The backend's log names routes and statuses, never the token the requests carried.
    expect(logLines.some((line) => line.includes(`/object/${REPLIES}/`))).toBe(true)
    expect(logLines.filter((line) => line.includes(thread.token))).toEqual([])
  }, 60_000)

  it('anon without the right token reads and lists nothing of the conversation, and writes nothing', async () => {
    const thread = await newThread()
    const other = await newThread()
    const message = randomUUID()
    const name = replyFileObjectName(thread.id, message, randomUUID())
    const bytes = randomBytes(2_000)
    expect((await staff.storage.from(REPLIES).upload(name, bytes, OCTETS)).error).toBeNull()
    await storeReply(thread.id, message)
    const file = await backend.db
      .query<{ version: string }>(
        'select version from storage.objects where bucket_id = $1 and name = $2',
        [REPLIES, name],
      )
      .then(([row]) => objectFile(backend.storageDir, REPLIES, name, row!.version))

    const notFound = { status: 400, statusCode: '404', message: 'Object not found' }
    for (const token of [null, randomBytes(32).toString('hex'), other.token, 'not-a-token']) {
      expect(refusal((await visitorFiles(token).download(name)).error)).toEqual(notFound)
      expect(await visitorFiles(token).list()).toMatchObject({ data: [], error: null })
      expect(await visitorFiles(token).list(thread.id)).toMatchObject({ data: [], error: null })
      expect(await visitorFiles(token).list(`${thread.id}/${message}`)).toMatchObject({ data: [] })
    }
    // The path for authenticated reads, by hand, as a browser would send it.
    const byHand = (token: string) =>
      fetch(`${backend.url}/storage/v1/object/authenticated/${REPLIES}/${name}`, {
        headers: {
          apikey: backend.anonKey,
          authorization: `Bearer ${backend.anonKey}`,
          [MAILBOX_TOKEN_HEADER]: token,
        },
      })
    expect((await byHand(other.token)).status).toBe(400)
    const right = await byHand(thread.token)
    expect(right.status).toBe(200)
    expect(Buffer.from(await right.arrayBuffer()).equals(bytes)).toBe(true)

    // The visitor, even with the token, neither uploads, overwrites, updates nor removes.
    const visitor = visitorFiles(thread.token)
    const rls = {
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    }
    const planted = replyFileObjectName(thread.id, randomUUID(), randomUUID())
    expect(refusal((await visitor.upload(planted, randomBytes(10), OCTETS)).error)).toEqual(rls)
    expect(
      refusal((await visitor.upload(name, randomBytes(10), { ...OCTETS, upsert: true })).error),
    ).toMatchObject({ statusCode: '403' })
    expect(refusal((await visitor.update(name, randomBytes(10), OCTETS)).error)).toMatchObject({
      statusCode: '403',
    })
    expect(await visitor.remove([name])).toMatchObject({ data: [], error: null })
    expect(await exists(file)).toBe(true)
    // Staff neither: only service_role removes, through the removal queue.
    expect(await staff.storage.from(REPLIES).remove([name])).toMatchObject({ data: [] })
    expect(await exists(file)).toBe(true)
    const downloaded = await visitorFiles(thread.token).download(name)
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).equals(bytes)).toBe(true)

    // REST: the storage schema is not exposed, with or without the token.
    const rest = createClient(backend.url, backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: NoRealtimeSocket as never },
      global: { headers: { [MAILBOX_TOKEN_HEADER]: thread.token } },
    })
    expect(await rest.schema('storage').from('objects').select('name')).toMatchObject({
      status: 406,
      error: { code: 'PGRST106' },
    })
  })

  it('counts a wrong mailbox token on a download as a miss of its network; the right one still reads', async () => {
    const thread = await newThread()
    const message = randomUUID()
    const name = replyFileObjectName(thread.id, message, randomUUID())
    const bytes = randomBytes(1_000)
    expect((await staff.storage.from(REPLIES).upload(name, bytes, OCTETS)).error).toBeNull()
    await storeReply(thread.id, message)
    const network = clientFor(backend, backend.anonKey, '198.51.100.50')
    const from = (token: string) =>
      network.storage.from(REPLIES).setHeader(MAILBOX_TOKEN_HEADER, token)

    await backend.db.query('update private.thread_limits set miss_limit = 1')
    try {
      const wrong = await from(randomBytes(32).toString('hex')).download(name)
      expect(refusal(wrong.error)).toMatchObject({ statusCode: '404' })
      // That miss filled the network's limit: its next wrong receipt is refused.
      const guess = await network.rpc('read_thread', {
        mailbox_token: randomBytes(32).toString('hex'),
      })
      expect(guess.error).toMatchObject({ code: 'thread_network_limit' })
      const right = await from(thread.token).download(name)
      expect(Buffer.from(await right.data!.arrayBuffer()).equals(bytes)).toBe(true)
    } finally {
      await backend.db.query('update private.thread_limits set miss_limit = 10')
    }
  })

  it('refuses staff uploads outside an open thread, after the reply, past the limits', async () => {
    const rls = {
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    }
    const upload = async (name: string, bytes = randomBytes(100)) =>
      refusal((await staff.storage.from(REPLIES).upload(name, bytes, OCTETS)).error)

    const thread = await newThread()
    const message = randomUUID()
    for (let n = 0; n < ATTACHMENT_LIMITS.files; n += 1)
      expect(await upload(replyFileObjectName(thread.id, message, randomUUID()))).toEqual({
        status: undefined,
        statusCode: undefined,
        message: undefined,
      })
    expect(await upload(replyFileObjectName(thread.id, message, randomUUID()))).toEqual({
      ...rls,
      message: `Too many files for one reply (limit: ${ATTACHMENT_LIMITS.files} files).`,
    })
    await storeReply(thread.id, message)
    expect(await upload(replyFileObjectName(thread.id, message, randomUUID()))).toEqual(rls)
    expect(await upload(`${thread.id}/${randomUUID()}`)).toEqual(rls)
    expect(await upload(`${thread.id}/${randomUUID()}/notes.txt`)).toEqual(rls)
    // An inquiry that does not exist.
    expect(await upload(replyFileObjectName(randomUUID(), randomUUID(), randomUUID()))).toEqual(rls)
    // A closed thread.
    await backend.db.query(
      `update public.contact_submissions set status = 'declined' where id = $1`,
      [thread.id],
    )
    expect(await upload(replyFileObjectName(thread.id, randomUUID(), randomUUID()))).toEqual(rls)
    // The bucket's own size limit, as for the form's files.
    const open = await newThread()
    expect(
      await upload(
        replyFileObjectName(open.id, randomUUID(), randomUUID()),
        Buffer.alloc(28_311_553),
      ),
    ).toEqual({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    })
  })

  it('lets a browser on another origin send the mailbox token (CORS preflight)', async () => {
    const preflight = await fetch(`${backend.url}/storage/v1/object/${REPLIES}/a/b/c`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': `apikey,authorization,x-client-info,${MAILBOX_TOKEN_HEADER}`,
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toContain(MAILBOX_TOKEN_HEADER)
  })

  it('removes the conversation’s files with their inquiry, and day-old orphans, through the Storage API', async () => {
    const thread = await newThread()
    const sent = randomUUID()
    const names = [
      replyFileObjectName(thread.id, sent, randomUUID()),
      replyFileObjectName(thread.id, sent, randomUUID()),
    ]
    for (const name of names)
      expect(
        (await staff.storage.from(REPLIES).upload(name, randomBytes(300), OCTETS)).error,
      ).toBeNull()
    await storeReply(thread.id, sent)
    const kept = await newThread()
    const orphan = replyFileObjectName(kept.id, randomUUID(), randomUUID())
    const fresh = replyFileObjectName(kept.id, randomUUID(), randomUUID())
    for (const name of [orphan, fresh])
      expect(
        (await staff.storage.from(REPLIES).upload(name, randomBytes(300), OCTETS)).error,
      ).toBeNull()
    const files = await Promise.all([...names, orphan, fresh].map((name) => fileOf(name, REPLIES)))
    expect(files.every(Boolean)).toBe(true)

    expect(await purgeRemoves(thread.id, orphan, [...names, orphan], files.slice(0, 3))).toBe(true)
    expect(await exists(files[3]!)).toBe(true)
  })
})
