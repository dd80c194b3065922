/**
 * Why a message added to a conversation was not delivered, beyond the inquiry's reasons
 * (contact-copy.ts): the sentences the outbox and /replies show. Here, not in contact-copy.ts,
 * which every page loads: only the code that sends or reads a conversation needs them.
 */
export const threadFailureMessages = {
  threadClosed:
    'This conversation is closed: it takes no more messages and will be deleted soon. Reach us on Telegram or WhatsApp if you need to.',
  threadNotFound:
    'No conversation answers to this receipt any more: it may have been closed and deleted. Reach us on Telegram or WhatsApp if you need to.',
  receiptInvalid: 'This receipt could not be used. Open /replies and type it again.',
} as const

export type ThreadFailureReason = keyof typeof threadFailureMessages
