/**
 * "Forget this site on this device" (/privacy): what the page shows before a press. What it asks
 * and answers after is in forget-device-steps.ts, loaded with the code that removes.
 */
export const forgetDevice = {
  heading: 'Leave no trace on this device',
  body: 'Messages waiting for a connection, a receipt you chose to keep, the pages saved for offline use: remove all this site keeps in this browser.',
  start: 'Forget this site on this device',
} as const satisfies {
  heading: string
  body: string
  start: string
}
