import { site } from '../../content/site'

/** An address as people write it: no scheme, no trailing slash (`t.me/umbragrowth`). */
const shown = (url: string) => url.replace(/^https?:\/\//, '').replace(/\/$/, '')

/**
 * The panel shown above the form once an inquiry is sealed (inquiry-panel.tsx). Loaded with the
 * panel, never with the page.
 */
export const panelCopy = {
  heading: 'Your inquiry is sealed',
  reference: 'Reference',
  sentAt: 'Time',
  status: {
    sent: 'Sent: our server has received it.',
    waiting: 'Waiting on this device: it is sent on its own as soon as our server can be reached.',
  },
  nextHeading: 'What happens next',
  next: (reference: string) => [
    'We answer within 24 hours, at the contact you gave.',
    `We write only from our own accounts: Telegram ${shown(site.telegramUrl)}, WhatsApp ${shown(site.whatsappUrl)} and ${site.founderEmail}.`,
    `Our first message quotes your reference, ${reference}. A message without it is not from us.`,
    'We never ask for seed phrases, private keys or a payment before a call.',
  ],
  receiptHeading: 'Your receipt',
  receiptNote:
    'These 12 words open our sealed replies on the replies page and let you write back. They are shown only once: save them now. Whoever holds them can read and write this conversation; nobody, us included, can recover them if lost.',
  copy: 'Copy receipt',
  copied: 'Receipt copied.',
  copyFailed: 'This browser did not let the page copy. Select the words and copy them yourself.',
  save: 'Save as file',
  saved: 'Receipt saved as a file.',
  keep: 'Keep it on this device',
  keepNote:
    'Stores the receipt in this browser, so the replies page fills it in. Anyone who uses this browser could then read the conversation.',
  keepFailed: 'This browser would not store it. Save it as a file or copy it instead.',
  repliesLink: 'Read replies and write back',
  another: 'Send another message',
  /** The saved file: what it is, and the reference. */
  file: (reference: string, receipt: string, repliesUrl: string) =>
    [
      `${site.name}: receipt for your sealed inquiry ${reference}.`,
      `Type these 12 words at ${repliesUrl} to read our sealed replies and write back. Whoever holds them can read and write the conversation; keep them private. Nobody can recover them if lost.`,
      '',
      receipt,
      '',
    ].join('\n'),
  fileName: (reference: string) => `receipt-${reference}.txt`,
} as const
