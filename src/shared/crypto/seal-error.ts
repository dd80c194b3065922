/**
 * Why something could not be sealed. Sealing fails closed: whatever the reason, nothing leaves.
 * Each app words the reason for its own people where it announces the result.
 */
export type SealFailure =
  /** No Web Crypto here (an old browser, or a page not served over HTTPS). */
  | 'no-webcrypto'
  | 'no-recipients'
  /** A recipient that is not an X25519 age recipient. */
  | 'invalid-recipient'
  | 'encrypt-failed'
  /** A file could not be read to its end (moved, deleted or changed since it was picked). */
  | 'file-unreadable'
  /** Sealed, it would be longer than the database stores. */
  | 'too-long'

/** The only error the crypto module throws; `message` is for a developer's console. */
export class SealError extends Error {
  readonly reason: SealFailure

  constructor(reason: SealFailure, options?: { cause?: unknown }) {
    super(`could not seal: ${reason}`, options)
    this.name = 'SealError'
    this.reason = reason
  }
}
