import { createHash } from 'node:crypto'
import { build } from 'rolldown'
import type { Plugin } from 'vite'

/** The service worker's Background Sync code (src/features/contact/outbox/sync-worker.ts). */
const ENTRY = 'src/features/contact/outbox/sync-worker.ts'

export type SyncWorkerFile = { fileName: string; code: string }

/**
 * Bundles the outbox's Background Sync handler into one classic script (IIFE, no imports: a
 * service worker's `importScripts` cannot load modules), with the build's configuration defined
 * as for the pages. Its name carries a hash of its content, so a new version changes `sw.js` and
 * the browser installs it; under `assets/` it is served immutable like the rest.
 */
export async function bundleSyncWorker(define: Record<string, string>): Promise<SyncWorkerFile> {
  const { output } = await build({
    input: ENTRY,
    write: false,
    platform: 'browser',
    transform: { define },
    output: { format: 'iife', name: 'contactOutboxSync', minify: true, codeSplitting: false },
  })
  const code = output[0].code
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 10)
  return { fileName: `assets/outbox-sync-${hash}.js`, code }
}

/** Emits the bundled handler into the client build (the service worker imports it by name). */
export function syncWorkerPlugin(file: SyncWorkerFile): Plugin {
  return {
    name: 'outbox-sync-worker',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: file.fileName, source: file.code })
    },
  }
}
