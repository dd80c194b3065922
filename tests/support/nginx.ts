import { spawn, type ChildProcess } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { HOST_FILES, NGINX_HEADERS_INCLUDE } from '../../src/build/security-headers'
import { freePort } from './ports'

/** Debian's nginx (package nginx-light), installed by tests/support/ensure-nginx.sh. */
export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
const MIME_TYPES = process.env.NGINX_MIME_TYPES ?? '/etc/nginx/mime.types'

export type RunningNginx = { origin: string; stop: () => Promise<void> }

/**
 * Starts nginx in the foreground on 127.0.0.1 and a free port, serving `siteDir` with the nginx
 * files the build shipped in it, as the README tells a deployer to install them: the headers file
 * where the snippet's `include` expects it, and the snippet inside a plain `server` block. Only the
 * wrapper (listen, root, temp folders) is the test's own.
 */
export async function startNginx(siteDir: string): Promise<RunningNginx> {
  const prefix = await mkdtemp(join(tmpdir(), 'site-nginx-'))
  const headersTarget = join(prefix, NGINX_HEADERS_INCLUDE)
  await mkdir(dirname(headersTarget), { recursive: true })
  await copyFile(join(siteDir, HOST_FILES.nginxHeaders), headersTarget)
  const port = await freePort()
  const config = [
    // One process, no user switch: a test server, stopped by the test that started it.
    'daemon off;',
    'master_process off;',
    `pid ${join(prefix, 'nginx.pid')};`,
    'error_log stderr warn;',
    'events { worker_connections 64; }',
    'http {',
    `  include ${MIME_TYPES};`,
    '  default_type application/octet-stream;',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `  ${kind}_temp_path ${join(prefix, `${kind}-temp`)};`,
    ),
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    root ${siteDir};`,
    `    include ${join(siteDir, HOST_FILES.nginxSite)};`,
    '  }',
    '}',
    '',
  ].join('\n')
  const configFile = join(prefix, 'nginx.conf')
  await writeFile(configFile, config)

  const child: ChildProcess = spawn(NGINX_PATH, ['-p', prefix, '-c', configFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const origin = `http://127.0.0.1:${port}`

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    await rm(prefix, { recursive: true, force: true })
  }

  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`nginx exited with ${child.exitCode}:\n${stderr}`)
    }
    try {
      await fetch(`${origin}/robots.txt`)
      return { origin, stop }
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`nginx did not answer on ${origin}:\n${stderr}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
