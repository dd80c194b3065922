/** "Forget this site on this device" (/privacy): what it removes, asked first, then done. */
export const forgetDevice = {
  heading: 'Leave no trace on this device',
  body: 'This browser keeps a few things for this site: messages waiting for a connection, a receipt if you chose to keep it, the pages saved for offline use and the service worker that serves them. You can remove them all here, now.',
  start: 'Forget this site on this device',
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
  heading: string
  body: string
  start: string
  confirm: (waiting: number, receipt: boolean) => string
  confirmButton: string
  cancel: string
  working: string
  done: string
  failed: string
}
