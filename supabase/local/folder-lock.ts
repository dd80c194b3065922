import lockfile from 'proper-lockfile'
import { LOCK_STALE_MS } from './local-connection'
import type { backendPaths } from './paths'

/**
 * One backend per folder: an exclusive lock (an atomic mkdir, refreshed every 5 s) held for the
 * process's life. It goes stale 30 s after a kill -9; PGlite's start can block the event loop for
 * many seconds on a busy machine, so a shorter threshold would hand the folder to a second one.
 */

export class BackendInUseError extends Error {}

export async function lockFolder(
  paths: ReturnType<typeof backendPaths>,
  options: { waitMs: number; onLost: (error: Error) => void },
): Promise<() => Promise<void>> {
  return lockfile
    .lock(paths.dir, {
      lockfilePath: paths.lockFile,
      stale: LOCK_STALE_MS,
      update: 5_000,
      retries: { retries: Math.ceil(options.waitMs / 1000), minTimeout: 1000, maxTimeout: 1000 },
      onCompromised: options.onLost,
    })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ELOCKED') throw error
      throw new BackendInUseError(
        `Another local backend is using ${paths.dir} (lock ${paths.lockFile}). Stop it first; ` +
          'the lock of a backend that was killed expires within 30 seconds.',
      )
    })
}
