// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REQUIRED_FIELDS_MESSAGE } from '../contact/contact-copy'
import { threadFailureMessages } from './thread-copy'
import type { Conversation, OpenOutcome } from './open-conversation'
import type { FileDownloadOutcome } from '../../shared/files/download-file-browser'
import { RepliesReader, type RepliesDependencies } from './replies-reader'
import { conversationCopy, repliesCopy } from './replies-copy'
import { asSigningSeed } from '../../shared/crypto/signing'
import type { FollowUpDependencies } from './send-follow-up'

const INQUIRY = '3b241101-e2bb-4255-8caf-4136c566a962'
const DECK = {
  object: `${INQUIRY}/5d41402a-bc4b-4a76-b971-9d911017c592/6f1e8c2a-0b3d-4e5f-8a9b-0c1d2e3f4a5b`,
  name: 'Launch plan.pdf',
  type: 'application/pdf',
  size: 2_500_000,
  sha256: 'a'.repeat(64),
}
const SHEET = { ...DECK, object: DECK.object.replace(/.$/, 'c'), name: 'Tokens.csv', type: '' }
const conversation = (over: Partial<Conversation> = {}): Conversation => ({
  inquiryId: INQUIRY,
  reference: INQUIRY.slice(0, 8),
  status: 'answered',
  deleteBy: null,
  messages: [
    {
      id: INQUIRY,
      from: 'visitor',
      at: '2026-11-25T10:00:00Z',
      body: 'Our launch brief.',
      inquiry: true,
      files: [],
      unsigned: false,
      placed: null,
    },
    {
      id: 'a1',
      from: 'agency',
      at: '2026-11-25T11:00:00Z',
      body: 'We can help.',
      inquiry: false,
      files: [DECK, SHEET],
      unsigned: false,
      placed: { from: 'agency', seq: 1, answers: null, hash: 'a'.repeat(64) },
    },
    {
      id: 'a2',
      from: 'agency',
      at: '2026-11-25T12:00:00Z',
      body: null,
      inquiry: false,
      files: [],
      unsigned: false,
      placed: null,
    },
  ],
  keys: {
    identity: 'AGE-SECRET-KEY-1X',
    recipient: 'age1x',
    mailboxToken: 'ab'.repeat(32),
    signingSeed: asSigningSeed(new Uint8Array(32)),
    signingKey: '0'.repeat(64),
  },
  ...over,
})

function setup(
  outcome: OpenOutcome,
  followUp: Partial<FollowUpDependencies> = {},
  download: RepliesDependencies['download'] = vi.fn(async () => 'opened' as const),
) {
  const follow: FollowUpDependencies = {
    seal: vi.fn(async (_body: string, id: string) => ({
      id,
      mailbox_token: 'ab'.repeat(32),
      sealed: 'armor',
    })),
    send: vi.fn(async () => ({ kind: 'delivered' as const })),
    enqueue: vi.fn(async () => {}),
    isOnline: () => true,
    ...followUp,
  }
  const dependencies: RepliesDependencies = {
    open: vi.fn(async () => outcome),
    followUp: () => follow,
    download,
  }
  render(<RepliesReader dependencies={dependencies} />)
  const user = userEvent.setup()
  const openWith = async (text: string) => {
    const field = screen.getByRole('textbox', { name: repliesCopy.receiptLabel })
    await user.clear(field)
    if (text) await user.type(field, text)
    await user.click(screen.getByRole('button', { name: repliesCopy.open }))
  }
  return { dependencies, follow, user, openWith }
}

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('RepliesReader', () => {
  it('asks for the receipt when the field is empty, without trying to open anything', async () => {
    const { dependencies, openWith } = setup({ kind: 'no-match' })
    await openWith('')
    expect(await screen.findByText(repliesCopy.problems.empty)).toBeTruthy()
    expect(dependencies.open).not.toHaveBeenCalled()
  })

  it.each([
    [{ kind: 'receipt-problem', problem: 'length' } as const, repliesCopy.problems.length],
    [{ kind: 'receipt-problem', problem: 'checksum' } as const, repliesCopy.problems.checksum],
    [{ kind: 'no-match' } as const, repliesCopy.noMatch],
  ])('says what is wrong: %o', async (outcome, sentence) => {
    const { openWith } = setup(outcome)
    await openWith('some words')
    expect(await screen.findByText(sentence)).toBeTruthy()
    expect(screen.getByRole('textbox', { name: repliesCopy.receiptLabel })).toHaveProperty(
      'value',
      'some words',
    )
  })

  it('names when to try again after the guessing limit', async () => {
    const { openWith } = setup({ kind: 'limited', scope: 'network', retryAt: Date.now() + 600_000 })
    await openWith('some words')
    expect(
      await screen.findByText(/^Too many receipts that open nothing .* Try again after .+\.$/),
    ).toBeTruthy()
  })

  it('opens the thread oldest first: the brief, the replies, and one that cannot be opened says so', async () => {
    const { openWith } = setup({ kind: 'opened', conversation: conversation() })
    await openWith('the twelve words')
    expect(
      await screen.findByRole('heading', { name: conversationCopy.heading(INQUIRY.slice(0, 8)) }),
    ).toBeTruthy()
    expect(screen.getByText(conversationCopy.status.answered)).toBeTruthy()
    const items = screen
      .getByRole('list', { name: conversationCopy.threadLabel })
      .querySelectorAll(':scope > li')
    expect([...items].map((item) => item.textContent)).toEqual([
      expect.stringContaining('Our launch brief.'),
      expect.stringContaining('We can help.'),
      expect.stringContaining(conversationCopy.unopenable),
    ])
    // The receipt is gone from the page once the conversation is open.
    expect(screen.queryByRole('textbox', { name: repliesCopy.receiptLabel })).toBeNull()
  })

  it('shows a reply the agency did not sign as not from the agency, with no text, and says what is missing', async () => {
    const [inquiry, reply] = conversation().messages
    const { openWith } = setup({
      kind: 'opened',
      conversation: conversation({
        messages: [
          inquiry!,
          {
            ...reply!,
            id: 'forged',
            body: null,
            files: [],
            unsigned: true,
            placed: null,
          },
          // The agency's second reply, its first withheld.
          { ...reply!, id: 'a3', placed: { ...reply!.placed!, seq: 2 } },
        ],
      }),
    })
    await openWith('the twelve words')
    const items = (
      await screen.findByRole('list', { name: conversationCopy.threadLabel })
    ).querySelectorAll(':scope > li')
    expect(items[1]?.textContent).toContain(conversationCopy.notFrom.agency)
    expect(items[1]?.textContent).toContain(conversationCopy.unsigned.agency)
    expect(screen.getByRole('alert').textContent).toBe(
      conversationCopy.order({ kind: 'missing', from: 'agency', seq: 1 }),
    )
  })

  it('lists a reply’s files (name, type, size) with Download, and says what each came to', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const outcomes: FileDownloadOutcome[] = ['opened', 'mismatch']
    const download = vi.fn<RepliesDependencies['download']>(async () => outcomes.shift()!)
    const { user, openWith } = setup({ kind: 'opened', conversation: conversation() }, {}, download)
    await openWith('the twelve words')
    const list = await screen.findByRole('list', { name: conversationCopy.files.label })
    expect(list.textContent).toContain('Launch plan.pdf (application/pdf, 2.4 MB)')
    expect(list.textContent).toContain(`Tokens.csv (${conversationCopy.files.noType}, 2.4 MB)`)
    expect(screen.getAllByRole('list', { name: conversationCopy.files.label })).toHaveLength(1)

    await user.click(
      screen.getByRole('button', { name: conversationCopy.files.downloadLabel('Launch plan.pdf') }),
    )
    expect(await screen.findByText(conversationCopy.files.opened)).toBeTruthy()
    await user.click(
      screen.getByRole('button', { name: conversationCopy.files.downloadLabel('Tokens.csv') }),
    )
    expect(await screen.findByText(conversationCopy.files.mismatch)).toBeTruthy()
    expect(download.mock.calls.map(([file, open]) => [file.name, open.inquiryId])).toEqual([
      ['Launch plan.pdf', INQUIRY],
      ['Tokens.csv', INQUIRY],
    ])
  })

  it.each([
    ['too-large', conversationCopy.files['too-large']],
    ['offline', conversationCopy.files.offline],
    ['damaged', conversationCopy.files.damaged],
    ['not-found', conversationCopy.files['not-found']],
  ] as const)('a download that comes to %s says so in a sentence', async (outcome, sentence) => {
    const { user, openWith } = setup(
      { kind: 'opened', conversation: conversation() },
      {},
      async () => outcome,
    )
    await openWith('the twelve words')
    await user.click(
      await screen.findByRole('button', {
        name: conversationCopy.files.downloadLabel('Tokens.csv'),
      }),
    )
    expect(await screen.findByText(sentence)).toBeTruthy()
  })

  it('writes back: refuses an empty message, sends one sealed under one id, shows it', async () => {
    const { follow, user, openWith } = setup({ kind: 'opened', conversation: conversation() })
    await openWith('the twelve words')
    const send = await screen.findByRole('button', { name: conversationCopy.send })
    await user.click(send)
    expect(await screen.findByText(REQUIRED_FIELDS_MESSAGE)).toBeTruthy()
    expect(follow.seal).not.toHaveBeenCalled()

    await user.type(
      screen.getByRole('textbox', { name: conversationCopy.messageLabel }),
      '  One more thing.  ',
    )
    await user.click(send)
    expect(await screen.findByText(conversationCopy.sent)).toBeTruthy()
    // The visitor's first follow-up, answering the last message shown that was placed.
    expect(follow.seal).toHaveBeenCalledWith(
      '  One more thing.  ',
      expect.any(String),
      expect.any(Number),
      { seq: 1, answers: 'a'.repeat(64) },
    )
    expect(screen.getByRole('list', { name: conversationCopy.threadLabel }).textContent).toContain(
      'One more thing.',
    )
    expect(screen.getByRole('textbox', { name: conversationCopy.messageLabel })).toHaveProperty(
      'value',
      '',
    )
  })

  it('keeps the draft’s id across a retry, and the text after a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const send = vi
      .fn<FollowUpDependencies['send']>()
      .mockResolvedValueOnce({ kind: 'server-error', reason: 'serverError', detail: 'HTTP 500' })
      .mockResolvedValueOnce({ kind: 'delivered' })
    const { follow, user, openWith } = setup(
      { kind: 'opened', conversation: conversation() },
      { send },
    )
    await openWith('the twelve words')
    await user.type(
      await screen.findByRole('textbox', { name: conversationCopy.messageLabel }),
      'Hello',
    )
    await user.click(screen.getByRole('button', { name: conversationCopy.send }))
    expect(await screen.findByText(/problem storing your message/)).toBeTruthy()
    expect(screen.getByRole('textbox', { name: conversationCopy.messageLabel })).toHaveProperty(
      'value',
      'Hello',
    )
    await user.click(screen.getByRole('button', { name: conversationCopy.send }))
    expect(await screen.findByText(conversationCopy.sent)).toBeTruthy()
    const ids = vi.mocked(follow.seal).mock.calls.map(([, id]) => id)
    expect(ids[0]).toBe(ids[1])
  })

  it('a statement timeout while opening says busy, try again, keeping the receipt in the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { openWith } = setup({ kind: 'busy', detail: 'HTTP 500 57014: canceling statement' })
    await openWith('some words')
    expect(await screen.findByText(repliesCopy.busy)).toBeTruthy()
    expect(repliesCopy.busy).toMatch(/try again/i)
    expect(screen.getByRole('textbox', { name: repliesCopy.receiptLabel })).toHaveProperty(
      'value',
      'some words',
    )
  })

  it('a follow-up the server is too busy to store (a statement timeout) is queued, not refused', async () => {
    const { follow, user, openWith } = setup(
      { kind: 'opened', conversation: conversation() },
      {
        send: vi.fn<FollowUpDependencies['send']>(async () => ({
          kind: 'no-answer',
          reason: 'busy',
          detail: 'HTTP 500 57014: canceling statement due to statement timeout',
        })),
      },
    )
    await openWith('the twelve words')
    await user.type(
      await screen.findByRole('textbox', { name: conversationCopy.messageLabel }),
      'Thursday works.',
    )
    await user.click(screen.getByRole('button', { name: conversationCopy.send }))
    expect(await screen.findByText(conversationCopy.queued)).toBeTruthy()
    expect(follow.enqueue).toHaveBeenCalledWith({
      kind: 'message',
      message: expect.objectContaining({ sealed: 'armor' }) as unknown,
    })
  })

  it('offline, queues the sealed message in the outbox and says so', async () => {
    const { follow, user, openWith } = setup(
      { kind: 'opened', conversation: conversation() },
      { isOnline: () => false },
    )
    await openWith('the twelve words')
    await user.type(
      await screen.findByRole('textbox', { name: conversationCopy.messageLabel }),
      'Later',
    )
    await user.click(screen.getByRole('button', { name: conversationCopy.send }))
    expect(await screen.findByText(conversationCopy.queued)).toBeTruthy()
    expect(follow.send).not.toHaveBeenCalled()
    expect(follow.enqueue).toHaveBeenCalledWith({
      kind: 'message',
      message: expect.objectContaining({ sealed: 'armor' }) as unknown,
    })
  })

  it('a conversation closed meanwhile gets a sentence; a closed one shows no form and its deletion', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const send = vi.fn<FollowUpDependencies['send']>(async () => ({
      kind: 'refused',
      reason: 'threadClosed',
      detail: 'HTTP 409 thread_closed',
    }))
    const { user, openWith } = setup({ kind: 'opened', conversation: conversation() }, { send })
    await openWith('the twelve words')
    await user.type(
      await screen.findByRole('textbox', { name: conversationCopy.messageLabel }),
      'Hi',
    )
    await user.click(screen.getByRole('button', { name: conversationCopy.send }))
    expect(await screen.findByText(threadFailureMessages.threadClosed)).toBeTruthy()
    cleanup()

    const closed = setup({
      kind: 'opened',
      conversation: conversation({ status: 'closed', deleteBy: '2026-11-26T13:00:00Z' }),
    })
    await closed.openWith('the twelve words')
    expect(await screen.findByText(/^Closed: .* will be deleted by .+\.$/)).toBeTruthy()
    expect(screen.queryByRole('textbox', { name: conversationCopy.messageLabel })).toBeNull()
  })
})
