// @vitest-environment jsdom
// Storing a reply, with the database's answer faked at the client: what each refusal comes to.
import { afterEach, describe, expect, it, vi } from 'vitest'

const answer = vi.hoisted(() => ({ error: null as { code: string; message: string } | null }))

vi.mock('../../lib/supabase-client', () => ({
  supabase: { from: () => ({ insert: async () => ({ error: answer.error }) }) },
}))

const { insertReply } = await import('./inbox-data')

const reply = {
  id: '5d41402a-bc4b-4a76-b971-9d911017c592',
  submission_id: '3b241101-e2bb-4255-8caf-4136c566a962',
  sealed: 'armor',
}

afterEach(() => {
  answer.error = null
  vi.restoreAllMocks()
})

describe('insertReply', () => {
  it('a statement timeout (57014) is busy, so staff are told to try again, not that it failed', async () => {
    answer.error = { code: '57014', message: 'canceling statement due to statement timeout' }
    expect(await insertReply(reply)).toEqual({ kind: 'busy' })
  })

  it('a closed thread is closed; any other refusal failed', async () => {
    answer.error = { code: 'thread_closed', message: 'closed' }
    expect(await insertReply(reply)).toEqual({ kind: 'closed' })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    answer.error = { code: 'XX000', message: 'internal' }
    expect(await insertReply(reply)).toEqual({ kind: 'failed' })
  })
})
