import { beforeEach, expect, test } from 'vitest'
import { dismissToast, getToasts, isToasterNeeded, removeToast, resetToasts, showToast } from './toast-store'

beforeEach(() => resetToasts())

test('a toast is queued open, and the toaster is needed from then on', () => {
  const id = showToast({ title: 'Hello' })
  expect(getToasts()).toEqual([{ id, title: 'Hello', open: true }])
  expect(isToasterNeeded()).toBe(true)
})

test('dismissing closes a toast, removing forgets it', () => {
  const id = showToast({ title: 'Bye' })
  dismissToast(id)
  expect(getToasts()[0]?.open).toBe(false)
  removeToast(id)
  expect(getToasts()).toEqual([])
})

test('at most three show at once, and passing messages make room before a waiting prompt', () => {
  showToast({ title: 'A new version is available', duration: Infinity })
  for (const title of ['one', 'two', 'three', 'four']) showToast({ title })
  expect(getToasts().map((toast) => toast.title)).toEqual(['A new version is available', 'three', 'four'])
})
