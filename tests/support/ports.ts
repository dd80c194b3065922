import { createServer } from 'node:net'
import { wireUrl } from '../../supabase/local/paths'

/**
 * Ports the browser tests use, away from the ones `npm start` takes (4173 site, 54321 API, 54322
 * database), so tests can run while a developer has the site open. E2E_PORT_OFFSET (a multiple of
 * 100, say) moves them all, so two checkouts can run their browser tests side by side.
 */
const OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0)
export const E2E_SITE_PORT = 4183 + OFFSET
export const E2E_API_PORT = 54331 + OFFSET
export const E2E_API_URL = `http://127.0.0.1:${E2E_API_PORT}`
export const E2E_DB_PORT = 54332 + OFFSET
export const E2E_DB_URL = wireUrl(E2E_DB_PORT)
/** The e2e backend's folder (database, lock, development identity), emptied by `npm run build:e2e`. */
export const E2E_BACKEND_DIR = 'node_modules/.cache/e2e-backend'

/**
 * The builds the browser tests serve, relative to the repository root, as
 * `tests/support/build-e2e.sh` writes them: the site, and a changed version for the update test.
 */
export const E2E_BUILD_DIR = 'node_modules/.cache/e2e-dist'
export const E2E_NEXT_BUILD_DIR = 'node_modules/.cache/e2e-dist-next'

/** The staff inbox, served from its own origin as in production. */
export const E2E_INBOX_PORT = 4185 + OFFSET
export const E2E_INBOX_URL = `http://127.0.0.1:${E2E_INBOX_PORT}`
/** The same server by name: WebAuthn takes a domain as its relying party, never an IP address. */
export const E2E_INBOX_LOCALHOST_URL = `http://localhost:${E2E_INBOX_PORT}`
export const E2E_INBOX_BUILD_DIR = 'node_modules/.cache/e2e-inbox'
/** A next inbox (another agency name), for the test of updates by consent. */
export const E2E_INBOX_NEXT_BUILD_DIR = 'node_modules/.cache/e2e-inbox-next'

/** A second site server, started by the update test itself, serving a folder it can swap. */
export const E2E_UPDATE_PORT = 4184 + OFFSET
/** The same for the inbox's update test. */
export const E2E_INBOX_UPDATE_PORT = 4186 + OFFSET

/** A port free on 127.0.0.1 right now, for a server a test starts on its own. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}
