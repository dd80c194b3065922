// @vitest-environment node
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  checkSha256,
  REAL_POSTGREST_SUPPORTED,
  startRealPostgrest,
  verifiedPostgrestBinary,
} from './real-postgrest'
import { createThrowawayDatabase } from '../test-support'

/**
 * The oracle's binary is a third party's repackaging: it runs only with the pinned sha256, and
 * on linux x64 its absence fails the suites (it is not skipped).
 */
describe.runIf(REAL_POSTGREST_SUPPORTED)('the real PostgREST binary (linux x64)', () => {
  const folder = mkdtemp(join(tmpdir(), 'postgrest-sha-'))
  afterAll(async () => rm(await folder, { recursive: true, force: true }))

  it('is installed, with the pinned sha256', async () => {
    await expect(verifiedPostgrestBinary()).resolves.toMatch(/postgrest$/)
  })

  it('refuses a binary whose sha256 is not the pinned one', async () => {
    const altered = join(await folder, 'postgrest')
    await copyFile(await verifiedPostgrestBinary(), altered)
    await writeFile(altered, 'x', { flag: 'a' })
    await expect(checkSha256(altered)).rejects.toThrow(/^Refusing to run .*: its sha256 is /)
  })

  it('starts on 127.0.0.1 on a free port, serves the migrated schema, and stops', async () => {
    const database = await createThrowawayDatabase({ migrated: true })
    try {
      const postgrest = await startRealPostgrest(database.url)
      expect(postgrest.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const response = await fetch(`${postgrest.url}/contact_submissions`, { method: 'HEAD' })
      expect(response.status).toBe(401)
      await postgrest.stop()
      await expect(fetch(postgrest.url)).rejects.toThrow()
    } finally {
      await database.drop()
    }
  })
})
