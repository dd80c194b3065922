import { site } from '../../content/site'
import type { ReceiptProblem } from '../../shared/conversation/receipt'
import type { OrderNotice } from '../../shared/conversation/thread-order'

/** "14:05, 3 Mar 2026": when a limit passes, or when a closed conversation is deleted. */
export const formatWhen = (at: number | string) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** The replies page (/replies): the receipt's field, and what opening it can come to. */
export const repliesCopy = {
  receiptLabel: 'Receipt',
  receiptHint:
    'The 12 words you were given when you sent your inquiry. They stay in this browser: only a key derived from them is used to find the conversation.',
  open: 'Open',
  opening: 'Opening...',
  problems: {
    empty: 'Type or paste your receipt: the 12 words you were given when you sent your inquiry.',
    length: 'A receipt has exactly 12 words. Check that none is missing and none is extra.',
    'unknown-word':
      'One of these words is not in the receipt word list. Check the spelling of each word.',
    checksum:
      'These 12 words are not a receipt: a word may be mistyped or out of order. Check them against the one you saved.',
  } satisfies Record<ReceiptProblem | 'empty', string>,
  noMatch:
    'No conversation opens with this receipt. Check the words; if they are right, the conversation may have been closed and deleted.',
  limited: {
    network: (when: string) =>
      `Too many receipts that open nothing were tried from this network. Try again after ${when}.`,
    mailbox: (when: string) =>
      `This conversation was opened too often in the last hour. Try again after ${when}.`,
  },
  noAnswer: 'Our server could not be reached just now. Check your connection and try again.',
  busy: 'Our server is busy right now. Please try again in a minute.',
  failed: 'Our server could not open the conversation just now. Please try again later.',
  unavailable:
    'The code that opens your conversation could not be loaded. Check your connection and try again.',
} as const

/** The open conversation (conversation-view.tsx), loaded with it after "Open". */
export const conversationCopy = {
  heading: (reference: string) => `Conversation ${reference}`,
  status: {
    received: 'Received: we have your inquiry and have not replied here yet.',
    answered: 'Answered: we have replied.',
    closed: (deleteBy: string | null) =>
      `Closed: this conversation takes no more messages and will be deleted ${deleteBy ? `by ${deleteBy}` : 'soon'}.`,
  },
  threadLabel: 'Messages, oldest first',
  you: 'You',
  agency: site.name,
  inquiry: 'Your inquiry',
  unopenable: 'This message could not be opened with your receipt.',
  /** Who an unsigned message is shown as: never its side's name. */
  notFrom: { agency: `Not from ${site.name}`, visitor: 'Not from you' },
  unsigned: {
    agency: `This message claims to be from ${site.name} but is not signed with our key: someone with access to our database wrote it. Its text is not shown; do not act on it.`,
    visitor:
      'This message claims to be yours but is not signed with your receipt’s key: someone with access to our database wrote it. Its text is not shown.',
  },
  orderLabel: 'What the conversation’s order says',
  order: (notice: OrderNotice) => {
    const whose = notice.from === 'agency' ? `${site.name}’s reply` : 'Your message'
    switch (notice.kind) {
      case 'missing':
        return `${whose} number ${notice.seq} is missing: our server did not give it.`
      case 'repeated':
        return `${whose} number ${notice.seq} is shown more than once.`
      case 'out-of-place':
        return `${whose} number ${notice.seq} is out of place: it was sent before one shown above it.`
      case 'answers-unseen':
        return `${whose} number ${notice.seq} answers a message that is not shown above it.`
    }
  },
  messageLabel: 'Your message',
  send: 'Send securely',
  sending: 'Encrypting & Sending...',
  sent: 'Message Sent Securely',
  queued:
    'Saved on this device: your message is encrypted and will be sent as soon as our server can be reached.',
  closeHint: 'To leave, close this page: nothing of the conversation stays in it.',
  /** A reply's files, and what "Download" came to. */
  files: {
    label: 'Files sent with this message',
    noType: 'type not given',
    download: 'Download',
    downloadLabel: (name: string) => `Download ${name}`,
    working: 'Downloading and opening in this browser…',
    opened: 'Opened in this browser and checked: it is the file we sent. Saved to your downloads.',
    mismatch:
      'This file opened, but it is not the file we sent (its fingerprint does not match). It was not saved.',
    damaged:
      'This file could not be opened: what is stored is damaged or incomplete. It was not saved.',
    'other-key': 'This file could not be opened with your receipt. It was not saved.',
    'too-large':
      'This file is too large to open on this device. Open the conversation on a computer and download it there.',
    offline:
      'The file could not be fetched: you seem to be offline, or our server cannot be reached. Check your connection and try again.',
    busy: 'Our server is busy right now, so the file could not be fetched. Please try again in a minute.',
    'not-found': 'This file is no longer stored: it may have been deleted with the conversation.',
    failed: 'The file could not be fetched just now. Please try again later.',
  },
} as const
