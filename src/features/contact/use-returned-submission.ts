import { useEffect, useSyncExternalStore } from 'react'
import { toFormValues, type ContactFormValues } from './contact-schema'
import {
  getReturnedSubmissions,
  registerRestoreTarget,
  subscribeToReturnedSubmissions,
  takeReturnedSubmission,
  type ReturnedSubmission,
} from './returned-submissions'

const none: readonly ReturnedSubmission[] = []

/**
 * While the form is on screen it is where refused submissions come back to: a waiting one is
 * restored into the fields. Its outbox copy stays until the form has sent it again (the form calls
 * `release` then), so a reload or a closed tab in between loses nothing.
 */
export function useReturnedSubmission(
  restore: (values: ContactFormValues, returned: ReturnedSubmission) => void,
  isDirty: boolean,
) {
  const waiting = useSyncExternalStore(subscribeToReturnedSubmissions, getReturnedSubmissions, () => none)

  useEffect(() => registerRestoreTarget(() => !isDirty), [isDirty])

  useEffect(() => {
    if (waiting.length === 0 || isDirty) return
    const returned = takeReturnedSubmission()
    if (!returned) return
    restore(toFormValues(returned.submission), returned)
  }, [waiting, isDirty, restore])
}
