export const SESSION_STORAGE_KEY = 'inbox-auth-session'

export type SessionPlace = 'tab' | 'device'

type WebStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * The session's storage: this tab's sessionStorage (it survives a reload, ends with the tab), or
 * with "Keep me signed in on this device" localStorage. Chosen before signing in; at start, a tab
 * that holds its own session keeps it, otherwise the device's is used.
 */
export function createSessionStorage(device: WebStorage, tab: WebStorage, storageKey: string) {
  let place: SessionPlace =
    tab.getItem(storageKey) === null && device.getItem(storageKey) !== null ? 'device' : 'tab'
  const here = () => (place === 'device' ? device : tab)
  const adapter: WebStorage = {
    getItem: (key) => here().getItem(key),
    setItem: (key, value) => here().setItem(key, value),
    removeItem: (key) => here().removeItem(key),
  }
  return {
    adapter,
    place: () => place,
    choose: (next: SessionPlace) => void (place = next),
  }
}
