/**
 * What the thread's order says, from inside the seals. The database orders a thread by its own
 * clock and could leave a message out, show one twice or move it; each signed message carries its
 * side's sequence number and the hash of the last message its author had (thread-message.ts), so
 * both readers can say so. Only signed messages count: a forged one proves nothing.
 */
import type { ThreadMessage } from './thread-message'

export type Side = ThreadMessage['from']

/** A genuine message, in the order the database gave: its place and its own hash. */
export type Placed = Pick<ThreadMessage, 'seq' | 'answers' | 'from'> & { hash: string }

export type OrderNotice =
  /** No message `seq` of `from` is here, though a later one of that side is. */
  | { kind: 'missing'; from: Side; seq: number }
  /** Message `seq` of `from` is here more than once. */
  | { kind: 'repeated'; from: Side; seq: number }
  /** Message `seq` of `from` comes after a later one of the same side. */
  | { kind: 'out-of-place'; from: Side; seq: number }
  /** Message `seq` of `from` answers a message that is not before it here. */
  | { kind: 'answers-unseen'; from: Side; seq: number }

/** What is wrong with the order of `placed` (the database's order), in that order; [] when all holds. */
export function orderNotices(placed: readonly Placed[]): OrderNotice[] {
  const notices: OrderNotice[] = []
  const seen = { visitor: new Set<number>(), agency: new Set<number>() }
  const highest = { visitor: 0, agency: 0 }
  const hashesBefore = new Set<string>()
  for (const { from, seq, answers, hash } of placed) {
    if (seen[from].has(seq)) notices.push({ kind: 'repeated', from, seq })
    else if (seq < highest[from]) notices.push({ kind: 'out-of-place', from, seq })
    if (answers !== null && !hashesBefore.has(answers)) {
      notices.push({ kind: 'answers-unseen', from, seq })
    }
    seen[from].add(seq)
    highest[from] = Math.max(highest[from], seq)
    hashesBefore.add(hash)
  }
  for (const from of ['visitor', 'agency'] as const) {
    for (let seq = 1; seq < highest[from]; seq += 1) {
      if (!seen[from].has(seq)) notices.push({ kind: 'missing', from, seq })
    }
  }
  return notices
}

/**
 * Where the author's next message stands, from the genuine messages they see (the database's
 * order): one past their side's highest number, answering the last message shown.
 */
export function nextPlace(placed: readonly Placed[], from: Side): Pick<Placed, 'seq' | 'answers'> {
  const own = placed.filter((message) => message.from === from).map((message) => message.seq)
  return { seq: Math.max(0, ...own) + 1, answers: placed.at(-1)?.hash ?? null }
}
