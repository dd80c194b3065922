/**
 * Removes what this origin keeps in this browser: its service workers first (so none refills a
 * cache meanwhile), Cache Storage, every IndexedDB database, localStorage and sessionStorage.
 * `knownDatabases` names the app's own, for browsers that cannot list them (Firefox before 126).
 * Cookies: neither app sets any.
 */
export async function forgetOrigin(knownDatabases: readonly string[]): Promise<void> {
  const registrations = (await navigator.serviceWorker?.getRegistrations()) ?? []
  await Promise.all(registrations.map((registration) => registration.unregister()))
  if (typeof caches !== 'undefined')
    await Promise.all((await caches.keys()).map((name) => caches.delete(name)))
  const listed =
    typeof indexedDB.databases === 'function'
      ? (await indexedDB.databases()).flatMap(({ name }) => (name ? [name] : []))
      : []
  await Promise.all([...new Set([...listed, ...knownDatabases])].map(deleteDatabase))
  localStorage.clear()
  sessionStorage.clear()
}

/** Resolves once deleted; an open connection closes on `versionchange` (each app's stores do). */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name)
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error ?? new Error(`${name} could not be deleted`))
  })
}
