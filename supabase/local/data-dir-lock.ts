import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * PGlite's data directory may be opened by one process only: two would corrupt it. The stand-in
 * holds `<dataDir>.lock` (its pid) while it runs; the submissions CLI checks it before opening
 * the directory itself.
 */
export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/[\\/]+$/, '')}.lock`
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid of the live process holding the directory, or null if it is free. */
export async function dataDirHolder(dataDir: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(lockPathFor(dataDir), 'utf8')).trim())
    return Number.isInteger(pid) && pid > 0 && isRunning(pid) ? pid : null
  } catch {
    return null
  }
}

export type DataDirLock = { release(): Promise<void> }

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = lockPathFor(dataDir)
  const holder = await dataDirHolder(dataDir)
  if (holder !== null) {
    throw new Error(
      `The local database ${dataDir} is in use by process ${holder} (another local backend?). ` +
        `Stop it first, or delete ${path} if that process is not a local backend.`,
    )
  }
  // A lock left by a process that died is stale: take it over.
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, String(process.pid), 'utf8')
  return {
    async release() {
      const content = await readFile(path, 'utf8').catch(() => '')
      if (content.trim() === String(process.pid)) await unlink(path).catch(() => {})
    },
  }
}
