// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DRAFT, TEST_RECEIPT } from './contact-test-fixtures'
import { InquiryPanel } from './inquiry-panel'
import { panelCopy } from './inquiry-panel-copy'
import { keptReceipt } from './kept-receipt'

// The outbox as the panel sees it, driven by the test: its counts, and the ids it holds.
const fakeOutbox = vi.hoisted(() => ({
  held: [] as string[],
  counts: { pending: 0, needsAttention: 0 },
  rerender: () => {},
}))
vi.mock('../outbox/use-outbox', async () => {
  const { useState } = await import('react')
  return {
    outbox: {
      list: async () => fakeOutbox.held.map((id) => ({ id, state: 'pending' })),
    },
    useOutbox: () => {
      const [, setTick] = useState(0)
      fakeOutbox.rerender = () => setTick((tick) => tick + 1)
      return { online: true, counts: fakeOutbox.counts }
    },
  }
})

const inquiry = { id: DRAFT.id, receipt: TEST_RECEIPT, sentAt: DRAFT.now }
const onAnother = vi.fn()

function show(queued: boolean) {
  render(
    <MemoryRouter>
      <InquiryPanel inquiry={inquiry} queued={queued} onAnother={onAnother} />
    </MemoryRouter>,
  )
  return userEvent.setup()
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  onAnother.mockReset()
})

describe('InquiryPanel', () => {
  it('shows the reference, the time, what happens next, and the receipt once', () => {
    show(false)
    const panel = screen.getByRole('region', { name: panelCopy.heading })
    expect(panel.textContent).toContain(DRAFT.id.slice(0, 8))
    expect(screen.getByText(panelCopy.status.sent)).toBeTruthy()
    for (const line of panelCopy.next(DRAFT.id.slice(0, 8)))
      expect(screen.getByText(line)).toBeTruthy()
    // Numbered, one word to an item, in order: copied by hand, none dropped or swapped.
    const words = within(screen.getByRole('list', { name: panelCopy.receiptHeading }))
      .getAllByRole('listitem')
      .map((item) => item.textContent)
    expect(words).toEqual(TEST_RECEIPT.split(' ').map((word, index) => `${index + 1}.${word}`))
    expect(screen.getByRole('link', { name: panelCopy.repliesLink }).getAttribute('href')).toBe(
      '/replies',
    )
    // The receipt is in no title and no address.
    expect(document.title).not.toContain('legal')
    expect(window.location.href).not.toContain('legal')
  })

  it('says it waits on this device, until the outbox no longer holds this inquiry', async () => {
    fakeOutbox.held = [DRAFT.id, 'another-id']
    fakeOutbox.counts = { pending: 2, needsAttention: 0 }
    show(true)
    expect(screen.getByText(panelCopy.status.waiting)).toBeTruthy()
    // Another message was delivered: this one still waits.
    fakeOutbox.held = [DRAFT.id]
    fakeOutbox.counts = { pending: 1, needsAttention: 0 }
    await act(async () => fakeOutbox.rerender())
    expect(screen.getByText(panelCopy.status.waiting)).toBeTruthy()
    fakeOutbox.held = []
    fakeOutbox.counts = { pending: 0, needsAttention: 0 }
    await act(async () => fakeOutbox.rerender())
    expect(await screen.findByText(panelCopy.status.sent)).toBeTruthy()
  })

  it('copies the receipt to the clipboard, and says so', async () => {
    const user = show(false)
    const writeText = vi.spyOn(navigator.clipboard, 'writeText')
    await user.click(screen.getByRole('button', { name: panelCopy.copy }))
    expect(writeText).toHaveBeenCalledWith(TEST_RECEIPT)
    expect(await screen.findByText(panelCopy.copied)).toBeTruthy()
  })

  it('saves a text file made in the browser, naming what it is and the reference', async () => {
    const user = show(false)
    let saved: Blob | undefined
    URL.createObjectURL = vi.fn((blob: Blob) => ((saved = blob), 'blob:receipt'))
    URL.revokeObjectURL = vi.fn()
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    await user.click(screen.getByRole('button', { name: panelCopy.save }))
    expect(click).toHaveBeenCalledTimes(1)
    const text = await saved!.text()
    expect(text).toContain(`receipt for your sealed inquiry ${DRAFT.id.slice(0, 8)}`)
    expect(text).toContain(TEST_RECEIPT)
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      `receipt-${DRAFT.id.slice(0, 8)}.txt`,
    )
  })

  it('keeps the receipt on this device only while "Keep it on this device" is ticked (off by default)', async () => {
    const user = show(false)
    const keep = screen.getByRole('checkbox', { name: panelCopy.keep })
    expect(keep).toHaveProperty('checked', false)
    expect(keptReceipt()).toBeNull()
    await user.click(keep)
    expect(keptReceipt()).toBe(TEST_RECEIPT)
    await user.click(keep)
    expect(keptReceipt()).toBeNull()
    expect(localStorage.length).toBe(0)
  })

  it('"Send another message" hands back to the form', async () => {
    const user = show(false)
    await user.click(screen.getByRole('button', { name: panelCopy.another }))
    expect(onAnother).toHaveBeenCalledTimes(1)
  })
})
