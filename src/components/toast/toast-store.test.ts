import { beforeEach, expect, test } from 'vitest'
import {
  dismissToast,
  getToasts,
  isToasterNeeded,
  removeToast,
  resetToasts,
  showToast,
} from './toast-store'

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
  expect(getToasts().map((toast) => toast.title)).toEqual([
    'A new version is available',
    'three',
    'four',
  ])
})

const openTitles = () =>
  getToasts()
    .filter((toast) => toast.open)
    .map((toast) => toast.title)

test('a success closes the passing errors before it, so a validation message never sits above "sent"', () => {
  showToast({ title: 'All required fields must be filled.', variant: 'destructive' })
  showToast({ title: 'Message Sent Securely', variant: 'success' })
  expect(openTitles()).toEqual(['Message Sent Securely'])
})

test('a success leaves an error that waits for the visitor, and other news', () => {
  showToast({ title: 'Needs you', variant: 'destructive', duration: Infinity })
  showToast({ title: 'A new version is available', duration: Infinity })
  showToast({ title: 'Message Sent Securely', variant: 'success' })
  expect(openTitles()).toEqual(['Needs you', 'A new version is available', 'Message Sent Securely'])
})

test('a new toast replaces the open ones of its group, or with its title when it names no group', () => {
  showToast({ title: 'All required fields must be filled.', variant: 'destructive' })
  showToast({ title: 'All required fields must be filled.', variant: 'destructive' })
  expect(openTitles()).toEqual(['All required fields must be filled.'])

  showToast({ title: 'Saved on this device', group: 'contact-submit' })
  showToast({ title: 'Submission failed', variant: 'destructive', group: 'contact-submit' })
  expect(openTitles()).toEqual(['All required fields must be filled.', 'Submission failed'])
})

test('a replaced toast closes (and animates out) before it is removed', () => {
  const first = showToast({ title: 'Same' })
  showToast({ title: 'Same' })
  expect(getToasts().find((toast) => toast.id === first)?.open).toBe(false)
})

test('news of a message replaces the older toast about the same message, not about another', () => {
  showToast({ title: 'Saved on this device', group: 'contact-submit', about: 'message-1' })
  showToast({ title: 'Saved on this device', group: 'other-press', about: 'message-2' })
  showToast({ title: 'Message Sent Securely', variant: 'success', about: 'message-1' })
  expect(openTitles()).toEqual(['Saved on this device', 'Message Sent Securely'])
  expect(getToasts().find((toast) => toast.open)?.about).toBe('message-2')
})
