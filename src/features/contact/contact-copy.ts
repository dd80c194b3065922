import { SealError, type SealFailure } from '../../shared/crypto/seal-error'

/** Spec §5 / §8: the one message for any required field that is empty after trimming. */
export const REQUIRED_FIELDS_MESSAGE = 'All required fields must be filled.'

/** Spec §8: what the failure toast says when there is nothing better to say. */
export const FALLBACK_ERROR_MESSAGE = 'Please try again later.'

/**
 * The form's exact strings (spec §2 Secure Contact, §8 error catalogue). Plain text only: the
 * outbox's status line on every page imports this module, so it must not pull in the form's data.
 */
export const formCopy = {
  name: { label: 'Name / Alias', placeholder: 'Your name or preferred alias' },
  contact: { label: 'Primary Contact', placeholder: 'Email / Telegram / WhatsApp' },
  projectType: { label: 'Project Type', emptyOption: 'Select project type' },
  budget: { label: 'Budget Range (Optional)', emptyOption: 'Select budget range' },
  message: {
    label: 'Project Brief',
    placeholder:
      'Goals, timeline, markets, anything we should know. Share only what you are comfortable sharing.',
  },
  requiredHint: 'Required',
  submit: 'Send Securely',
  sending: 'Encrypting & Sending...',
  /**
   * Shown under the button when the encryption code is still loading a few seconds after Send (a
   * first visit on a poor connection). Nothing is sealed yet, so it promises nothing about saving.
   */
  stillEncrypting:
    'Still encrypting: the encryption code is slow to arrive on this connection. Nothing has been sent yet.',
  /**
   * Shown under the button once the message is sealed and its send has taken a few seconds (phones
   * on a poor connection). Never before sealing: "already encrypted" must be true when it shows.
   */
  stillSending:
    'Still sending: the connection is slow. Your message is already encrypted; if it cannot get through, it is saved on this device and sent later.',
  /**
   * The note of the inert form with JavaScript off (Tor Browser's "Safest", say): every way to
   * reach us without a script, and what each one protects, since none of them is the sealed form.
   */
  noScript: {
    lead: 'This form needs JavaScript to seal your brief in your browser. With it switched off, reach us directly; none of these is sealed by this site:',
    telegram: {
      label: 'Telegram',
      sealed:
        'encrypted to Telegram’s servers, which can read ordinary chats; a Secret Chat (on a phone) is end-to-end encrypted.',
    },
    whatsapp: {
      label: 'WhatsApp',
      sealed: 'end-to-end encrypted by WhatsApp, and tied to your phone number.',
    },
    email: {
      label: 'Email to the founder',
      sealed:
        'readable by the mail servers on the way, unless you encrypt it yourself (with age, to our key below, or PGP).',
    },
  },
} as const

/**
 * Why a message was not delivered, in words a visitor can act on. Raw server text (SQL, constraint
 * names, HTML error pages) never reaches the page: it goes to the console only.
 */
export const failureMessages = {
  noAnswer: 'Our server could not be reached just now.',
  busy: 'Our server is busy right now. Your message is kept on this device and will be tried again shortly.',
  serverError: 'Our server had a problem storing your message. Please try again in a few minutes.',
  tooLarge: 'This message is too long for our server. Please shorten the brief and send it again.',
  staleKey:
    'This page encrypts to a key we no longer use. Copy your brief, reload the page and send it again.',
  notAccepted:
    'Our server did not accept this message. Please try again later, or reach us on Telegram or WhatsApp.',
  unavailable:
    'The contact service is not available right now. Please reach us on Telegram or WhatsApp.',
  fileRefused:
    'Our server did not accept your attached files. Please try again later, or reach us on Telegram or WhatsApp.',
  damaged:
    'This saved message is damaged and cannot be sent. Please discard it and write it again.',
  fallback: FALLBACK_ERROR_MESSAGE,
} as const

export type FailureReason = keyof typeof failureMessages

/**
 * Why nothing was sent when sealing failed (it fails closed), and what the visitor can do: retry
 * where that can help, another channel where it cannot. `unavailable`: the encryption code could
 * not be loaded.
 */
export const sealingFailures: Record<SealFailure | 'unavailable', string> = {
  unavailable:
    'The encryption code could not be loaded, so nothing was sent. Check your connection and try again; your message is still in the form.',
  'no-webcrypto':
    'This browser cannot encrypt here (no Web Crypto), so nothing was sent. Please use an up-to-date browser, or reach us on Telegram or WhatsApp.',
  'no-recipients':
    'This site has no encryption key configured, so nothing was sent. Please reach us on Telegram or WhatsApp.',
  'invalid-recipient':
    "This site's encryption key is malformed, so nothing was sent. Please reach us on Telegram or WhatsApp.",
  'encrypt-failed':
    'Your message could not be encrypted, so nothing was sent. Please try again; your message is still in the form.',
  'file-unreadable':
    'One of your files could not be read (it may have been moved or changed since you attached it), so nothing was sent. Remove it and attach it again; everything else is still in the form.',
  'too-long':
    'Your brief and the names of your files are too long to send together, so nothing was sent. Shorten the brief, or rename a file with a long name and attach it again; everything is still in the form.',
}

/** The sentence for a seal that failed: a SealError's reason, or its code not loading. */
export const sealingFailure = (error: unknown): string =>
  sealingFailures[error instanceof SealError ? error.reason : 'unavailable']

export const submitToasts = {
  sent: {
    title: 'Message Sent Securely',
    description: "Your encrypted message has been received. We'll respond within 24 hours.",
  },
  failed: { title: 'Submission failed' },
  requiredMissing: { title: REQUIRED_FIELDS_MESSAGE },
  invalid: { title: 'Please check the highlighted fields.' },
  queued: {
    title: 'Saved on this device',
    description:
      'Your message is encrypted and stored on this device. It will be sent automatically as soon as our server can be reached.',
    /** Where the browser has no Background Sync (Firefox, Safari): nothing sends it with no tab open. */
    descriptionNextVisit:
      'Your message is encrypted and stored on this device. It goes when you next open this site online.',
  },
  /** The encryption code did not arrive before the submit's deadline. Nothing was sent or stored. */
  notSealedInTime:
    'The connection is too slow to load the encryption just now, so nothing was sent. Your text is still in the form; please try again in a moment.',
  /** Neither the network nor this device's storage could take the message. */
  notSaved:
    'It could not be sent or saved on this device. Your text is still in the form; please try again in a moment.',
  /** No connection, and this device's storage is too full to keep the sealed files until there is one. */
  notSavedQuota:
    'It could not be sent, and this device does not have room to keep your encrypted files until it can be. Nothing was saved; your text and files are still in the form. Try again once you are back online, or attach fewer or smaller files.',
  /** A queued message refused later, perhaps while the visitor is on another page. */
  queuedRefused: (queuedAt: string, reason: string) =>
    `Your message queued at ${queuedAt} was not delivered. ${reason}`,
  /**
   * Several queued messages refused in one round: one toast that says how many, and points to the
   * review (`review` is the label of its button), where each one's time and reason are listed.
   */
  queuedRefusedSeveral: (count: number, review: string) =>
    `${count} messages you queued were not delivered. Open "${review}" to see why, then resend or discard them.`,
} as const
