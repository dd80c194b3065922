/**
 * The build id: the first twelve hex digits of the SHA-256 of the build manifest an app serves
 * (src/build/build-manifest.ts), which lists every other file it serves with its own SHA-256. Both
 * apps show it, and `npm run verify` prints it, so one short string names one exact set of files.
 */
export const BUILD_MANIFEST_PATH = '/build-manifest.json'

export const BUILD_ID_LENGTH = 12

export async function buildIdOf(manifest: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', manifest))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, BUILD_ID_LENGTH)
}

/**
 * The build id of what the host serves now (asked past any cache: after an update it names the new
 * build); null when it cannot be read (offline, or a host without the manifest).
 */
export async function fetchBuildId(fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await fetcher(BUILD_MANIFEST_PATH, { cache: 'no-cache' })
    return response.ok ? await buildIdOf(await response.arrayBuffer()) : null
  } catch {
    return null
  }
}
