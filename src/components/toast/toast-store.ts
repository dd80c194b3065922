/**
 * The toast queue, as plain data with no React and no Radix: any layer (the form, the outbox sync,
 * the PWA update prompt) can call `showToast`, and the Radix toaster is only downloaded once the
 * first toast is shown, keeping it out of the content pages' JavaScript.
 *
 * One region, no stale news: a new toast replaces the open ones of its group (by default, toasts
 * with the same title) and the ones about the same message (`about`: "Saved on this device" goes
 * when the outbox says that message was sent), and a success clears the errors that were about to
 * pass anyway, so "All required fields must be filled." never stays above "Message Sent Securely".
 */

export type ToastVariant = 'default' | 'success' | 'destructive'

export type ToastAction = {
  label: string
  /** Spoken alternative for screen-reader users (Radix requires one). */
  altText: string
  onSelect: () => void
}

export type ToastInput = {
  title: string
  description?: string
  variant?: ToastVariant
  action?: ToastAction
  /** Milliseconds before it closes itself; `Infinity` keeps it until dismissed. About 5 s by default. */
  duration?: number
  /**
   * Toasts about the same thing (say, "contact-submit" for every outcome of pressing Send): a new
   * one closes the open ones of its group. Without it, the title is the group.
   */
  group?: string
  /**
   * The message this toast is news of (its id): a newer toast about it replaces this one whatever
   * their groups, so a message's "saved" never stays beside its "sent".
   */
  about?: string
  /**
   * The control this toast answers (Send Securely for a send's outcome): on a phone the toast keeps
   * clear of it. Without it, whatever has focus when the toast appears.
   */
  near?: Element | null
}

export type Toast = ToastInput & { id: number; open: boolean }

export const DEFAULT_TOAST_DURATION = 5000
const MAX_VISIBLE = 3

type Listener = () => void

let toasts: readonly Toast[] = []
let nextId = 1
let toasterNeeded = false
const listeners = new Set<Listener>()

function emit(next: readonly Toast[]) {
  toasts = next
  listeners.forEach((listener) => listener())
}

const groupOf = (toast: ToastInput) => toast.group ?? toast.title
const passes = (toast: ToastInput) => Number.isFinite(toast.duration ?? DEFAULT_TOAST_DURATION)

/** Whether `earlier` is stale once `next` shows. */
function supersedes(next: ToastInput, earlier: Toast): boolean {
  if (groupOf(earlier) === groupOf(next)) return true
  if (next.about !== undefined && next.about === earlier.about) return true
  // Good news ends passing errors (a validation message, a failed try); an error that waits for
  // the visitor stays.
  return next.variant === 'success' && earlier.variant === 'destructive' && passes(earlier)
}

export function showToast(input: ToastInput): number {
  const id = nextId++
  toasterNeeded = true
  const kept = toasts.map((toast) =>
    toast.open && supersedes(input, toast) ? { ...toast, open: false } : toast,
  )
  emit(withinLimit([...kept, { ...input, id, open: true }]))
  return id
}

/**
 * At most a few toasts at once: the oldest ones that close by themselves make room first, so a
 * prompt that waits for the visitor (a new version) is not pushed out by passing messages.
 */
function withinLimit(list: Toast[]): Toast[] {
  const next = [...list]
  const open = () => next.filter((toast) => toast.open)
  while (open().length > MAX_VISIBLE) {
    const candidates = open()
    const oldest = candidates.find(passes) ?? candidates[0]
    if (!oldest) break
    next.splice(next.indexOf(oldest), 1)
  }
  return next
}

/** Starts the close animation; `removeToast` follows once it has finished. */
export function dismissToast(id: number): void {
  emit(toasts.map((toast) => (toast.id === id ? { ...toast, open: false } : toast)))
}

export function removeToast(id: number): void {
  emit(toasts.filter((toast) => toast.id !== id))
}

export function subscribeToToasts(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function getToasts(): readonly Toast[] {
  return toasts
}

/** True once any toast has been shown: the toaster then stays mounted, keeping its live region. */
export function isToasterNeeded(): boolean {
  return toasterNeeded
}

/** For tests: forget every toast. */
export function resetToasts(): void {
  emit([])
}
