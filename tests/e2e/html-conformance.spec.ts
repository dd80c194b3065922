import { execFile } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { E2E_BUILD_DIR, E2E_INBOX_BUILD_DIR } from '../support/ports'
import { expect, test } from '../support/strict-page'

/**
 * Every page both apps ship, as prerendered, passes the Nu Html Checker (the W3C's validator, npm's
 * vnu-jar, run with Java: tests/support/ensure-java.sh) with no error.
 */

const vnuJar = String(createRequire(import.meta.url)('vnu-jar'))

type Message = { type: string; url: string; lastLine?: number; message: string }

test('every built page of the site and the inbox passes the Nu Html Checker with no error', async () => {
  test.setTimeout(120_000)
  const pages = (
    await Promise.all(
      [E2E_BUILD_DIR, E2E_INBOX_BUILD_DIR].map(async (dir) =>
        (await readdir(dir))
          .filter((name) => name.endsWith('.html'))
          .map((name) => join(dir, name)),
      ),
    )
  ).flat()
  expect(pages.length).toBeGreaterThanOrEqual(10)
  // The checker exits 1 when it reports an error; its report is on stderr either way.
  const { stderr } = await promisify(execFile)(
    'java',
    ['-jar', vnuJar, '--errors-only', '--format', 'json', ...pages],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((failure: { stderr?: string; message: string }) => {
    if (failure.stderr === undefined) throw failure
    return { stderr: failure.stderr }
  })
  const { messages } = JSON.parse(stderr || '{"messages":[]}') as { messages: Message[] }
  const errors = messages
    .filter((message) => message.type === 'error' || message.type === 'non-document-error')
    .map(
      (message) => `${message.url.split('/').pop()}:${message.lastLine ?? '?'} ${message.message}`,
    )
  expect(errors).toEqual([])
})
