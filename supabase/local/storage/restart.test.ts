// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATTACHMENTS_BUCKET } from '../../../src/shared/submission/attachments'
import { REPO_ROOT } from '../paths'
import { createThrowawayDatabase, type ThrowawayDatabase } from '../test-support'

/**
 * Resumable uploads across a backend's death: `npm run backend` killed with SIGKILL after an
 * upload's last byte reached the disk and before its row was written (the row's transaction held
 * up by a lock the test takes), then started again. The upload is stored once, byte-identical,
 * before the backend answers anyone, and its address answers 404, never a complete offset for an
 * object that does not exist. An unfinished upload past its hour is gone after the restart. On
 * both databases the backend runs on.
 */

type Running = {
  child: ChildProcess
  url: string
  anonKey: string
  serviceKey: string
  dbUrl: string
}

const CHUNK_WAIT_MS = 20_000

async function startBackend(dir: string, databaseUrl: string | null): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      LOCAL_BACKEND_DIR: dir,
      LOCAL_API_PORT: '0',
      LOCAL_DB_PORT: databaseUrl ? 'off' : '0',
      DATABASE_URL: databaseUrl ?? '',
    },
  })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Press Ctrl+C')) resolve()
    })
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`backend exited (${code}): ${output}`)))
  })
  const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(output)?.[1] ?? ''
  return {
    child,
    url: field('API URL'),
    anonKey: field('anon key'),
    serviceKey: field('service_role key'),
    dbUrl: databaseUrl ?? field('DB URL'),
  }
}

async function killed(running: Running): Promise<void> {
  const exited = new Promise((resolve) => running.child.once('exit', resolve))
  running.child.kill('SIGKILL')
  await exited
}

const sizeOf = (file: string) =>
  stat(file).then(
    (found) => found.size,
    () => -1,
  )

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + CHUNK_WAIT_MS
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.each([
  { name: 'embedded PGlite', postgres: false },
  { name: 'PostgreSQL 15', postgres: true },
])('resumable uploads across a kill -9 on $name', ({ postgres }) => {
  let dir: string
  let database: ThrowawayDatabase | null = null
  let running: Running | null = null

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-backend-restart-'))
    if (postgres) database = await createThrowawayDatabase()
  }, 60_000)
  afterAll(async () => {
    if (running) await killed(running)
    await database?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  it('stores an upload the kill caught between its last byte and its row, and drops an expired one', async () => {
    running = await startBackend(dir, database?.url ?? null)
    const { url, anonKey } = running
    const tusHeaders = {
      apikey: anonKey,
      authorization: `Bearer ${anonKey}`,
      'tus-resumable': '1.0.0',
      'x-upsert': 'false',
      'cf-connecting-ip': '198.51.100.7',
    }
    const create = async (name: string, length: number) => {
      // Announced first, as the site does: the database counts the upload from now on.
      const reserved = await fetch(`${url}/rest/v1/rpc/reserve_attachment`, {
        method: 'POST',
        headers: { ...tusHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ object_name: name, byte_count: length }),
      })
      expect(reserved.status).toBe(204)
      const metadata = Object.entries({
        bucketName: ATTACHMENTS_BUCKET,
        objectName: name,
        contentType: 'application/octet-stream',
      })
        .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
        .join(',')
      const created = await fetch(`${url}/storage/v1/upload/resumable`, {
        method: 'POST',
        headers: { ...tusHeaders, 'upload-length': String(length), 'upload-metadata': metadata },
      })
      expect(created.status).toBe(201)
      return created.headers.get('location') ?? ''
    }
    const patch = (
      location: string,
      offset: number,
      body: Uint8Array | ReadableStream<Uint8Array>,
    ) =>
      fetch(location, {
        method: 'PATCH',
        headers: {
          ...tusHeaders,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body,
        duplex: 'half',
      } as RequestInit)
    const tusFile = (location: string) =>
      join(dir, 'storage', 'tus', location.split('/').pop() ?? '')

    // An upload left half done, made to look three hours old once the backend is down.
    const parked = await create(`${randomUUID()}/${randomUUID()}`, 100_000)
    expect((await patch(parked, 0, new Uint8Array(50_000))).status).toBe(204)

    const bytes = randomBytes(3 * 1024 * 1024)
    const name = `${randomUUID()}/${randomUUID()}`
    const location = await create(name, bytes.length)
    const head = bytes.length - 1000
    expect((await patch(location, 0, new Uint8Array(bytes.subarray(0, head)))).status).toBe(204)

    // The last 1,000 bytes in two halves: once the first half is on disk the policy check is
    // done, so the row's transaction can be held up before the second half arrives.
    let sendRest!: () => void
    const rest = new Promise<void>((resolve) => (sendRest = resolve))
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array(bytes.subarray(head, head + 500))),
      pull: async (controller) => {
        await rest
        controller.enqueue(new Uint8Array(bytes.subarray(head + 500)))
        controller.close()
      },
    })
    const last = patch(location, head, body).catch(() => null)
    await until(async () => (await sizeOf(tusFile(location))) > head, 'the first half')
    const holder = new pg.Client({ connectionString: running.dbUrl })
    holder.on('error', () => {})
    await holder.connect()
    await holder.query('begin')
    // PostgreSQL: the row waits for the lock. PGlite: the API waits for the wire's transaction.
    if (postgres) await holder.query('lock table storage.objects in access exclusive mode')
    else await holder.query('select 1')
    sendRest()
    await until(async () => (await sizeOf(tusFile(location))) === bytes.length, 'the last byte')
    await new Promise((resolve) => setTimeout(resolve, 300))
    await killed(running)
    running = null
    await last
    await holder.query('rollback').catch(() => {})
    await holder.end().catch(() => {})

    const parkedRecord = `${tusFile(parked)}.json`
    const record = JSON.parse(await readFile(parkedRecord, 'utf8')) as { creation_date: string }
    record.creation_date = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString()
    await writeFile(parkedRecord, JSON.stringify(record))
    // A killed backend's lock would go stale in 30 s; the test does not wait for it.
    await rm(join(dir, 'backend.lock'), { recursive: true, force: true })

    running = await startBackend(dir, database?.url ?? null)
    const again = running
    const headOf = async (address: string) =>
      (
        await fetch(address.replace(url, again.url), {
          method: 'HEAD',
          headers: {
            ...tusHeaders,
            apikey: again.anonKey,
            authorization: `Bearer ${again.anonKey}`,
          },
        })
      ).status
    expect(await headOf(location)).toBe(404)
    const stored = await fetch(
      `${again.url}/storage/v1/object/authenticated/${ATTACHMENTS_BUCKET}/${name}`,
      { headers: { apikey: again.anonKey, authorization: `Bearer ${again.serviceKey}` } },
    )
    expect(stored.status).toBe(200)
    expect(Buffer.from(await stored.arrayBuffer()).equals(bytes)).toBe(true)
    const client = new pg.Client({ connectionString: again.dbUrl })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from storage.objects where name = $1',
        [name],
      )
      expect(rows[0]?.n).toBe(1)
    } finally {
      await client.end()
    }

    expect(await headOf(parked)).toBe(404)
    expect(await sizeOf(tusFile(parked))).toBe(-1)
    expect(await sizeOf(parkedRecord)).toBe(-1)
  }, 240_000)
})
