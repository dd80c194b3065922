/**
 * Why a submission could not be sealed. Sealing fails closed: whatever the reason, nothing is
 * queued or sent, and the caller keeps the visitor's values in the form.
 */
export type SealingFailure =
  /** The crypto chunk could not be loaded (offline before the site was cached, a network error). */
  | 'unavailable'
  /** This browser has no Web Crypto here (an old browser, or a page not served over HTTPS). */
  | 'no-webcrypto'
  /** The build has no recipient to seal to. */
  | 'no-recipients'
  /** A configured recipient is not a valid X25519 age recipient. */
  | 'invalid-recipient'
  /** age itself failed. */
  | 'encrypt-failed'
  /** An attached file could not be read to the end (moved, deleted or changed since it was picked). */
  | 'file-unreadable'
  /**
   * The sealed inquiry would be larger than the database stores: only a brief near its limit
   * together with files whose names are very long (or full of characters JSON escapes).
   */
  | 'too-long'

const explanations: Record<SealingFailure, string> = {
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

/** The only error the sealing code throws. `message` is a sentence a visitor can read. */
export class SealingError extends Error {
  readonly reason: SealingFailure

  constructor(reason: SealingFailure, options?: { cause?: unknown }) {
    super(explanations[reason], options)
    this.name = 'SealingError'
    this.reason = reason
  }
}
