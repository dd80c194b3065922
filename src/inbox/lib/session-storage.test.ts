import { describe, expect, it } from 'vitest'
import { createSessionStorage } from './session-storage'

/** A Storage's three methods over a Map, as localStorage and sessionStorage behave. */
function memory() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

describe('where the session is kept', () => {
  it('in this tab unless a sign-in chose the device', () => {
    const device = memory()
    const tab = memory()
    const store = createSessionStorage(device, tab, 'k')
    expect(store.place()).toBe('tab')
    store.adapter.setItem('k', 'tab session')
    expect(tab.items.get('k')).toBe('tab session')
    expect(device.items.size).toBe(0)
  })

  it('on the device once chosen: a new tab (a new store over the same device) finds it', () => {
    const device = memory()
    const first = createSessionStorage(device, memory(), 'k')
    first.choose('device')
    first.adapter.setItem('k', 'trusted session')
    const newTab = createSessionStorage(device, memory(), 'k')
    expect(newTab.place()).toBe('device')
    expect(newTab.adapter.getItem('k')).toBe('trusted session')
    newTab.adapter.removeItem('k')
    expect(device.items.has('k')).toBe(false)
  })

  it('a tab with its own session keeps it, and signing out there leaves the device’s alone', () => {
    const device = memory()
    const tab = memory()
    device.items.set('k', 'trusted session')
    tab.items.set('k', 'tab session')
    const store = createSessionStorage(device, tab, 'k')
    expect(store.place()).toBe('tab')
    expect(store.adapter.getItem('k')).toBe('tab session')
    store.adapter.removeItem('k')
    expect(device.items.get('k')).toBe('trusted session')
  })
})
