import { chmod, lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The backend folder holds password hashes, TOTP secrets, refresh tokens and the development key:
 * no one but its owner may read or change it, whatever the umask it was started under. PGlite
 * creates its files with mode 0666 less the umask, so under the usual 022 they were readable by
 * every local user.
 */

export const OWNER_ONLY_UMASK = 0o077

/**
 * Files this process creates from now on are owner-only. The umask belongs to the whole process:
 * the backend is its process. Worker threads may not change it, hence the sweeps below too.
 */
export function createOwnerOnlyFiles(): void {
  try {
    process.umask(OWNER_ONLY_UMASK)
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION: `ownerOnly` sweeps at start and stop still apply.
  }
}

/**
 * Brings the backend folder `dir` to 0700 and each of its own `entries` (and all under them) to
 * 0700 (folders) or 0600 (files), as a folder left by an older version needs. Only the backend's
 * own entries: LOCAL_BACKEND_DIR may name a folder that holds other things too. Symbolic links are
 * left alone (chmod would follow them out); an entry removed during the walk (PGlite recycles its
 * WAL files) or not created yet is skipped.
 */
export async function ownerOnly(dir: string, entries: readonly string[]): Promise<void> {
  const visit = async (path: string): Promise<void> => {
    const stats = await lstat(path)
    if (stats.isSymbolicLink()) return
    const wanted = stats.isDirectory() ? 0o700 : 0o600
    if ((stats.mode & 0o777) !== wanted) await chmod(path, wanted)
    if (stats.isDirectory())
      for (const name of await readdir(path)) await visit(join(path, name)).catch(ignoreVanished)
  }
  await chmod(dir, 0o700)
  for (const entry of entries) await visit(entry).catch(ignoreVanished)
}

function ignoreVanished(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error
}
