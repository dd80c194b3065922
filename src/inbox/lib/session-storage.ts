/** The key the session is kept under, in sessionStorage or (a trusted device) localStorage. */
export const SESSION_STORAGE_KEY = 'inbox-auth-session'

/** Where the Supabase session is kept: this tab only, or this device (a trusted device). */
export type SessionPlace = 'tab' | 'device'

/** What supabase-js needs of a storage (auth-js's SupportedStorage, synchronous). */
export type SessionStorageAdapter = {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * The session's storage. Without "Keep me signed in on this device" it is this tab's
 * sessionStorage (it survives a reload and ends with the tab); with it, localStorage (new tabs
 * and restarts find it, until the agency's period ends or someone signs out). The place is chosen
 * before signing in and read back at start: a tab that holds its own session keeps using it,
 * otherwise a session kept on the device is used.
 */
export function createSessionStorage(
  device: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
  tab: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
  storageKey: string,
) {
  let place: SessionPlace =
    tab.getItem(storageKey) === null && device.getItem(storageKey) !== null ? 'device' : 'tab'
  const here = () => (place === 'device' ? device : tab)
  const adapter: SessionStorageAdapter = {
    getItem: (key) => here().getItem(key),
    setItem: (key, value) => here().setItem(key, value),
    removeItem: (key) => here().removeItem(key),
  }
  return {
    adapter,
    place: () => place,
    /** Before a sign-in: where the session it starts is kept. */
    choose(next: SessionPlace) {
      place = next
    },
  }
}
