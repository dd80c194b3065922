import { describe, expect, it } from 'vitest'
import { nextPlace, orderNotices, type Placed } from './thread-order'

const hash = (name: string) => name.padEnd(64, '0')

/** A genuine message: `from`'s `seq`, answering the message `answers` (by name). */
const at = (name: string, from: Placed['from'], seq: number, answers: string | null): Placed => ({
  from,
  seq,
  answers: answers && hash(answers),
  hash: hash(name),
})

// The inquiry, then reply 1, follow-up 1 answering it, reply 2 answering that.
const r1 = at('a1', 'agency', 1, null)
const v1 = at('b1', 'visitor', 1, 'a1')
const r2 = at('a2', 'agency', 2, 'b1')
const v2 = at('b2', 'visitor', 2, 'a2')

describe('the order inside the seals', () => {
  it('says nothing of a thread in order', () => {
    expect(orderNotices([r1, v1, r2, v2])).toEqual([])
    expect(orderNotices([])).toEqual([])
  })

  it('says when a message is missing from the middle', () => {
    // The visitor's first follow-up withheld: reply 2 answers it, and follow-up 2 has no 1.
    expect(orderNotices([r1, r2, v2])).toEqual([
      { kind: 'answers-unseen', from: 'agency', seq: 2 },
      { kind: 'missing', from: 'visitor', seq: 1 },
    ])
  })

  it('says when a message is shown twice (replayed)', () => {
    expect(orderNotices([r1, v1, v1, r2])).toContainEqual({
      kind: 'repeated',
      from: 'visitor',
      seq: 1,
    })
  })

  it('says when messages are moved out of their order', () => {
    const notices = orderNotices([r2, r1, v1])
    expect(notices).toContainEqual({ kind: 'out-of-place', from: 'agency', seq: 1 })
    expect(notices).toContainEqual({ kind: 'answers-unseen', from: 'agency', seq: 2 })
  })

  it('places the next message after the last one shown, one past its side’s highest', () => {
    expect(nextPlace([], 'agency')).toEqual({ seq: 1, answers: null })
    expect(nextPlace([r1, v1, r2], 'visitor')).toEqual({ seq: 2, answers: hash('a2') })
    expect(nextPlace([r1, v1, r2], 'agency')).toEqual({ seq: 3, answers: hash('a2') })
  })
})
