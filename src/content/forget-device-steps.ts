/** What "Forget this site on this device" asks before removing, and says after. */
export const forgetDeviceSteps = {
  confirm: (waiting: number, receipt: boolean) =>
    [
      'This removes, from this browser only:',
      waiting === 0
        ? 'no message is waiting to be sent;'
        : `${waiting === 1 ? '1 message' : `${waiting} messages`} waiting to be sent, which will then never reach us;`,
      receipt
        ? 'the receipt you kept, without which nobody can open our replies;'
        : 'no receipt is kept here;',
      'and the saved pages and service worker. It cannot be undone.',
    ].join(' '),
  confirmButton: 'Remove it all',
  cancel: 'Keep everything',
  working: 'Removing…',
  done: 'Done: this browser keeps nothing of this site any more. Close this tab to leave no page open either.',
  failed:
    'Not everything could be removed. Try again, or clear this site’s data in your browser’s settings.',
} as const satisfies {
  confirm: (waiting: number, receipt: boolean) => string
  confirmButton: string
  cancel: string
  working: string
  done: string
  failed: string
}
