/**
 * Names of the outbox's IndexedDB database and store, alone in this module so that the page's
 * start-up check ("is there an outbox at all?") can use them without loading idb or zod.
 */
export const OUTBOX_DB_NAME = 'contact-outbox'
export const OUTBOX_STORE = 'submissions'
