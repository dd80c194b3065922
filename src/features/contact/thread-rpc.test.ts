import { describe, expect, it } from 'vitest'
import { classifyAddAnswer, classifyReadAnswer, LIMIT_WINDOW_MS } from './thread-rpc'

const NOW = Date.parse('2026-11-25T12:00:00Z')
const ID = '3b241101-e2bb-4255-8caf-4136c566a962'
const thread = {
  reference: ID.slice(0, 8),
  status: 'received',
  delete_by: null,
  messages: [{ id: ID, direction: 'visitor', sealed: 'armor', created_at: '2026-11-25T11:00:00Z' }],
}
const refusal = (status: number, code: string, message = 'words') => ({
  status,
  data: null,
  error: { code, message },
})

describe('classifyReadAnswer (read_thread)', () => {
  it('a thread, or no match (null: the database counted a guess)', () => {
    expect(classifyReadAnswer({ status: 200, data: thread, error: null }, NOW)).toEqual({
      kind: 'thread',
      thread,
    })
    expect(classifyReadAnswer({ status: 200, data: null, error: null }, NOW)).toEqual({
      kind: 'no-match',
    })
  })

  it('429: guessing from this network, or reading this mailbox too often, with when to try again', () => {
    expect(classifyReadAnswer(refusal(429, 'thread_network_limit'), NOW)).toEqual({
      kind: 'limited',
      scope: 'network',
      retryAt: NOW + LIMIT_WINDOW_MS.thread_network_limit,
    })
    expect(classifyReadAnswer(refusal(429, 'thread_read_limit'), NOW)).toEqual({
      kind: 'limited',
      scope: 'mailbox',
      retryAt: NOW + LIMIT_WINDOW_MS.thread_read_limit,
    })
  })

  it('an answer that is not the function’s (a portal, a proxy) is no answer, never a thread', () => {
    for (const data of [[], '<html>', { reference: 'x' }, { ...thread, messages: [] }]) {
      expect(classifyReadAnswer({ status: 200, data, error: null }, NOW).kind).toBe('no-answer')
    }
    expect(classifyReadAnswer(refusal(0, '', 'TypeError: Failed to fetch'), NOW).kind).toBe(
      'no-answer',
    )
    expect(classifyReadAnswer(refusal(503, ''), NOW).kind).toBe('no-answer')
  })

  it('a malformed token or a server error fails, with the details for the console only', () => {
    const failed = classifyReadAnswer(refusal(400, 'mailbox_token_invalid', 'bad token'), NOW)
    expect(failed).toMatchObject({ kind: 'failed' })
    expect(classifyReadAnswer(refusal(500, 'XX000'), NOW).kind).toBe('failed')
  })
})

describe('classifyAddAnswer (add_to_thread)', () => {
  it('stored, or already stored under its id (a replay answers 409 23505): delivered', () => {
    expect(
      classifyAddAnswer({ status: 200, data: { id: ID, created_at: 'x' }, error: null }),
    ).toEqual({ kind: 'delivered' })
    expect(classifyAddAnswer(refusal(409, '23505', 'duplicate key'))).toEqual({ kind: 'delivered' })
  })

  it('a closed or unknown conversation, or a bad token, is refused with its sentence', () => {
    expect(classifyAddAnswer(refusal(409, 'thread_closed'))).toMatchObject({
      kind: 'refused',
      reason: 'threadClosed',
    })
    expect(classifyAddAnswer(refusal(404, 'thread_not_found'))).toMatchObject({
      kind: 'refused',
      reason: 'threadNotFound',
    })
    expect(classifyAddAnswer(refusal(400, 'mailbox_token_invalid'))).toMatchObject({
      kind: 'refused',
      reason: 'receiptInvalid',
    })
    expect(classifyAddAnswer(refusal(400, '23514', 'check constraint'))).toMatchObject({
      kind: 'refused',
      reason: 'notAccepted',
    })
  })

  it('no answer (offline, gateways, 429, a 200 without the function’s answer) is queued and retried', () => {
    for (const answer of [
      refusal(0, ''),
      refusal(502, ''),
      refusal(429, 'thread_write_limit'),
      { status: 200, data: null, error: null },
    ]) {
      expect(classifyAddAnswer(answer).kind).toBe('no-answer')
    }
    expect(classifyAddAnswer(refusal(500, 'XX000')).kind).toBe('server-error')
  })
})
