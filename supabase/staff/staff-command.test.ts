// @vitest-environment node
import { createClient } from '@supabase/supabase-js'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startLocalBackend, type LocalBackend } from '../local/local-backend'
import { totpCode } from '../local/auth/totp'
import { NoRealtimeSocket, testBackends } from '../local/test-support'
import { UsageError } from './cli-io'
import { runStaff } from './staff-command'

/** `npm run staff` against a real local backend (embedded PGlite), as the README's walkthrough uses it. */

let backend: LocalBackend

beforeAll(async () => {
  backend = await startLocalBackend({ apiPort: 0, dbPort: null, backendDir: 'memory' })
}, 120_000)
afterAll(async () => {
  await backend?.close()
})

async function staff(...argv: string[]) {
  const lines: string[] = []
  const env = { SUPABASE_URL: backend.url, SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey }
  await runStaff(argv, {
    env,
    output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    realtimeTransport: NoRealtimeSocket,
  })
  return lines.join('\n')
}

const signIn = (email: string, password: string) =>
  createClient(backend.url, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoRealtimeSocket as never },
  }).auth.signInWithPassword({ email, password })

describe('npm run staff', () => {
  it('add without --password creates the account with a strong password, shown once, that signs in', async () => {
    const out = await staff('add', 'ada@example.com')
    const password = /Password \(shown once, pass it on privately\): (\S+)/.exec(out)?.[1] ?? ''
    expect(password).toMatch(/^[\w-]{24}$/)
    expect((await signIn('ada@example.com', password)).error).toBeNull()
    expect(out).toContain('set up the second factor')
  })

  it('add with --password never echoes it', async () => {
    const out = await staff('add', 'bo@example.com', '--password', 'a long chosen passphrase')
    expect(out).not.toContain('a long chosen passphrase')
    expect((await signIn('bo@example.com', 'a long chosen passphrase')).error).toBeNull()
  })

  it('add refuses a password shorter than the project allows, in Auth’s words', async () => {
    await expect(staff('add', 'cy@example.com', '--password', 'short')).rejects.toThrow(
      /Could not create the user cy@example.com: Password should be at least 12 characters/,
    )
  })

  it('list shows who is on the staff list and who has a second factor', async () => {
    const out = await staff('list')
    expect(out).toMatch(/ada@example\.com\s+not yet\s+\d{4}-\d{2}-\d{2}/)
    expect(out).toMatch(/bo@example\.com\s+not yet/)
  })

  it('remove takes them off the list and deletes the account: the password no longer signs in', async () => {
    expect(await staff('remove', 'bo@example.com')).toBe(
      'Removed bo@example.com: off the staff list (their next request reads nothing), account deleted.',
    )
    expect((await signIn('bo@example.com', 'a long chosen passphrase')).error?.code).toBe(
      'invalid_credentials',
    )
    expect(await staff('list')).not.toContain('bo@example.com')
  })

  it('says so when the email is neither on the list nor an account', async () => {
    await expect(staff('remove', 'nobody@example.com')).rejects.toThrow(
      'nobody@example.com is not on the staff list, and has no account.',
    )
  })

  it('refuses half a hosted configuration, and a backend it cannot reach, in a sentence', async () => {
    const output = { out: () => {}, err: () => {} }
    await expect(
      runStaff(['list'], { env: { SUPABASE_URL: backend.url }, output }),
    ).rejects.toThrow(UsageError)
    await expect(
      runStaff(['list'], {
        env: {
          SUPABASE_URL: 'http://127.0.0.1:9',
          SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
        },
        output,
        realtimeTransport: NoRealtimeSocket,
      }),
    ).rejects.toThrow(
      'Cannot reach Supabase at http://127.0.0.1:9 to list the staff. Check SUPABASE_URL and the network.',
    )
  })
})

describe('npm run staff without SUPABASE_URL: this checkout’s backend, on whatever port it runs', () => {
  let folder: string
  let local: LocalBackend | undefined
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'staff-local-'))
  })
  afterAll(async () => {
    await local?.close()
    await rm(folder, { recursive: true, force: true })
  })

  async function staffHere(argv: string[]) {
    const lines: string[] = []
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      await runStaff(argv, {
        env: { LOCAL_BACKEND_DIR: folder },
        output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
        realtimeTransport: NoRealtimeSocket,
      })
      return lines.join('\n')
    } finally {
      // supabase-js prints raw network errors to the console: staff must read sentences only.
      expect(consoleError).not.toHaveBeenCalled()
      consoleError.mockRestore()
    }
  }

  it('says in a sentence that no backend runs for this folder, before any request', async () => {
    await expect(staffHere(['list'])).rejects.toThrow(
      new RegExp(
        `^No local backend is running for ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*\\nStart it with`,
      ),
    )
  })

  it('finds the backend from its connection.json, on a port other than 54321, and adds staff there', async () => {
    local = await startLocalBackend({ apiPort: 0, dbPort: null, backendDir: folder })
    expect(new URL(local.url).port).not.toBe('54321')
    expect(await staffHere(['add', 'dee@example.com'])).toContain(
      'Added dee@example.com to the staff.',
    )
    expect(await staffHere(['list'])).toMatch(/dee@example\.com\s+not yet/)
  }, 120_000)

  it('says in a sentence when the backend it found has stopped answering', async () => {
    await local?.close()
    local = undefined
    await expect(staffHere(['list'])).rejects.toThrow(/^No local backend is running for /)
  })
})

describe.each(testBackends())('npm run staff -- reset-mfa on $name', ({ start }) => {
  let started: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    started = await start()
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })

  async function staffThere(...argv: string[]) {
    const lines: string[] = []
    const { url, serviceRoleKey } = started.backend
    await runStaff(argv, {
      env: { SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey },
      output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      realtimeTransport: NoRealtimeSocket,
    })
    return lines.join('\n')
  }

  const client = () =>
    createClient(started.backend.url, started.backend.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: NoRealtimeSocket as never },
    })

  it('removes a lost authenticator: the sessions end, and the next sign-in sets one up again', async () => {
    const email = 'lost@example.com'
    const password = 'a long chosen passphrase'
    await staffThere('add', email, '--password', password)
    const phone = client()
    expect((await phone.auth.signInWithPassword({ email, password })).error).toBeNull()
    const enrolled = await phone.auth.mfa.enroll({ factorType: 'totp' })
    const factorId = enrolled.data?.id ?? ''
    const verified = await phone.auth.mfa.challengeAndVerify({
      factorId,
      code: totpCode(enrolled.data?.totp.secret ?? ''),
    })
    expect(verified.error).toBeNull()
    expect(await phone.rpc('inbox_access')).toMatchObject({ data: true })
    expect(await staffThere('list')).toMatch(/lost@example\.com\s+yes/)
    const refreshToken = (await phone.auth.getSession()).data.session?.refresh_token ?? ''

    const out = await staffThere('reset-mfa', email)
    expect(out).toContain(
      'Reset the second factor of lost@example.com: the authenticator is removed and every session of the account has ended.',
    )
    expect(await staffThere('list')).toMatch(/lost@example\.com\s+not yet/)
    // The phone's token is refused at its next request, and its refresh token is dead.
    expect(await phone.rpc('inbox_access')).toMatchObject({ data: false })
    expect(
      (await client().auth.refreshSession({ refresh_token: refreshToken })).error,
    ).toMatchObject({ code: 'refresh_token_not_found' })

    // The password still signs in, at aal1 with nothing to verify: the inbox enrols again.
    const again = client()
    expect((await again.auth.signInWithPassword({ email, password })).error).toBeNull()
    const level = await again.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })
    const reEnrolled = await again.auth.mfa.enroll({ factorType: 'totp' })
    expect(reEnrolled.error).toBeNull()
  })

  it('says so for an account without an authenticator, and for an unknown email', async () => {
    await staffThere('add', 'fresh@example.com', '--password', 'another long passphrase')
    expect(await staffThere('reset-mfa', 'fresh@example.com')).toBe(
      'fresh@example.com has no authenticator set up: nothing to reset.',
    )
    await expect(staffThere('reset-mfa', 'nobody@example.com')).rejects.toThrow(
      'nobody@example.com has no account.',
    )
    await expect(staffThere('reset-mfa')).rejects.toThrow(/reset-mfa takes one email address/)
  })
})
