import { describe, expect, it, vi } from 'vitest'
import type { ContactSubmission } from './contact-schema'
import type { SendOutcome } from './send-outcome'
import { classifyInsertAnswer, FALLBACK_ERROR_MESSAGE } from './send-to-supabase'
import { submitContact, type SubmitDependencies } from './submit-contact'

const submission: ContactSubmission = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  name: 'Ada',
  contact: 'ada@example.com',
  project_type: null,
  budget: 'discuss',
  message: 'Launch in Q3.',
  user_agent: 'TestAgent/1.0',
}

function dependencies(outcome: SendOutcome, overrides: Partial<SubmitDependencies> = {}) {
  return {
    send: vi.fn(async () => outcome),
    enqueue: vi.fn(async () => {}),
    isOnline: () => true,
    ...overrides,
  }
}

describe('classifyInsertAnswer (what supabase-js resolves with)', () => {
  it('reads no error as delivered', () => {
    expect(classifyInsertAnswer({ error: null, status: 201 })).toEqual({ kind: 'delivered' })
  })

  it('reads a duplicate id (409, 23505 on the primary key) as already delivered', () => {
    const message = 'duplicate key value violates unique constraint "contact_submissions_pkey"'
    expect(classifyInsertAnswer({ error: { code: '23505', message }, status: 409 })).toEqual({ kind: 'delivered' })
  })

  it('reads a duplicate on any other unique constraint as a refusal', () => {
    const message = 'duplicate key value violates unique constraint "contact_submissions_contact_key"'
    expect(classifyInsertAnswer({ error: { code: '23505', message }, status: 409 }).kind).toBe('rejected')
  })

  it('reads status 0 (fetch failed) as unreachable', () => {
    const answer = { error: { code: '', message: 'TypeError: Failed to fetch' }, status: 0 }
    expect(classifyInsertAnswer(answer)).toEqual({ kind: 'unreachable', message: 'TypeError: Failed to fetch' })
  })

  it('reads 5xx and 429 as retryable, keeping the message', () => {
    expect(classifyInsertAnswer({ error: { message: 'upstream down' }, status: 503 })).toEqual({
      kind: 'retryable',
      status: 503,
      message: 'upstream down',
    })
    expect(classifyInsertAnswer({ error: { message: 'slow down' }, status: 429 }).kind).toBe('retryable')
    expect(classifyInsertAnswer({ error: { message: 'timeout' }, status: 408 }).kind).toBe('retryable')
  })

  it('reads other answers as rejected with the error message, or the fallback when it has none', () => {
    const check = { error: { code: '23514', message: 'violates check constraint' }, status: 400 }
    expect(classifyInsertAnswer(check)).toEqual({ kind: 'rejected', status: 400, message: 'violates check constraint' })
    expect(classifyInsertAnswer({ error: { message: '' }, status: 401 })).toEqual({
      kind: 'rejected',
      status: 401,
      message: FALLBACK_ERROR_MESSAGE,
    })
    // A 409 that is not about our id (another unique constraint) is a refusal, not a delivery.
    expect(classifyInsertAnswer({ error: { code: '23503', message: 'fk' }, status: 409 }).kind).toBe('rejected')
  })
})

describe('submitContact', () => {
  it('reports sent when the insert is delivered, without queuing', async () => {
    const deps = dependencies({ kind: 'delivered' })
    expect(await submitContact(submission, deps)).toEqual({ kind: 'sent' })
    expect(deps.send).toHaveBeenCalledWith(submission)
    expect(deps.enqueue).not.toHaveBeenCalled()
  })

  it('queues exactly the row, without trying the network, when the browser is offline', async () => {
    const deps = dependencies({ kind: 'delivered' }, { isOnline: () => false })
    expect(await submitContact(submission, deps)).toEqual({ kind: 'queued' })
    expect(deps.send).not.toHaveBeenCalled()
    expect(deps.enqueue).toHaveBeenCalledWith(submission)
  })

  it('queues the row when the request gets no answer', async () => {
    const deps = dependencies({ kind: 'unreachable', message: 'TypeError: Failed to fetch' })
    expect(await submitContact(submission, deps)).toEqual({ kind: 'queued' })
    expect(deps.enqueue).toHaveBeenCalledWith(submission)
  })

  it('fails with the backend message on a refusal or a server error, queuing nothing', async () => {
    for (const outcome of [
      { kind: 'rejected', status: 400, message: 'violates check constraint' },
      { kind: 'retryable', status: 500, message: 'internal error' },
    ] as const) {
      const deps = dependencies(outcome)
      expect(await submitContact(submission, deps)).toMatchObject({ kind: 'failed', message: outcome.message })
      expect(deps.enqueue).not.toHaveBeenCalled()
    }
  })

  it('fails, so the form keeps the values, when the outbox cannot store the row', async () => {
    const deps = dependencies(
      { kind: 'unreachable', message: 'offline' },
      { enqueue: vi.fn(async () => Promise.reject(new Error('QuotaExceededError'))) },
    )
    const result = await submitContact(submission, deps)
    expect(result).toMatchObject({ kind: 'failed' })
    expect(result.kind === 'failed' && result.message).toContain('QuotaExceededError')
  })
})
