// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getToasts, resetToasts } from '../../components/toast/toast-store'
import {
  BUDGET_OPTIONS,
  PROJECT_TYPE_OPTIONS,
  submissionFieldsSchema,
} from '../../shared/submission/fields'
import {
  failureMessages,
  formCopy,
  REQUIRED_FIELDS_MESSAGE,
  sealingFailures,
  submitToasts,
} from './contact-copy'
import { SealError } from '../../shared/crypto/seal-error'
import { ContactForm, EMPTY_CONTACT_FORM } from './contact-form'
import { attachmentsFieldCopy } from './attachments-copy'
import { attachedFilesCopy } from './attached-files-copy'
import { panelCopy } from './inquiry-panel-copy'
import type { SendOutcome } from '../outbox/outbox-types'
import { fakeDependencies, sealedInquiryFor, TEST_RECEIPT } from './contact-test-fixtures'
import {
  STILL_SENDING_AFTER_MS,
  SUBMIT_DEADLINE_MS,
  type InquiryDraft,
  type SealedInquiry,
  type SubmitDependencies,
} from './submit-contact'

const attachmentsCopy = { ...attachmentsFieldCopy, ...attachedFilesCopy }

/** A send that never answers: a request stalled on a poor link. */
const neverAnswers = () => vi.fn(() => new Promise<SendOutcome>(() => {}))

function setup(overrides: Partial<SubmitDependencies> = {}) {
  const dependencies = fakeDependencies(overrides)
  const user = userEvent.setup({
    advanceTimers: (ms) => void (vi.isFakeTimers() && vi.advanceTimersByTime(ms)),
  })
  // The panel shown after Send links to /replies: the form lives inside the site's router.
  render(
    <MemoryRouter>
      <ContactForm dependencies={dependencies} />
    </MemoryRouter>,
  )
  const fields = {
    name: screen.getByRole('textbox', { name: /Name \/ Alias/ }),
    contact: screen.getByRole('textbox', { name: /Primary Contact/ }),
    project_type: screen.getByRole('combobox', { name: 'Project Type' }),
    budget: screen.getByRole('combobox', { name: 'Budget Range (Optional)' }),
    message: screen.getByRole('textbox', { name: /Project Brief/ }),
  }
  const submit = () => user.click(screen.getByRole('button', { name: formCopy.submit }))
  const fillRequired = async () => {
    await user.type(fields.name, '  Ada  ')
    await user.type(fields.contact, '@ada_l')
    await user.type(fields.message, 'Grow our Telegram to 50k.')
  }
  const fillAll = async () => {
    await fillRequired()
    await user.selectOptions(fields.project_type, 'community-building')
    await user.selectOptions(fields.budget, '25k-50k')
  }
  /** What the sealer was given for each press of Send: the draft (fields, id, time) and receipt. */
  const sealed = () => dependencies.seal.mock.calls.map(([draft]) => draft)
  const receipts = () => dependencies.seal.mock.calls.map(([, receipt]) => receipt)
  /** Presses Send and waits until the form says it is sending. */
  const submitAndWait = async () => {
    await submit()
    await screen.findByRole('button', { name: formCopy.sending })
  }
  /** Presses Send and lets the whole submit deadline pass (fake timers). */
  const submitPastDeadline = async () => {
    await submitAndWait()
    await act(async () => vi.advanceTimersByTime(SUBMIT_DEADLINE_MS))
  }
  /** What fillAll typed and chose, every value as it was. */
  const expectEveryValueKept = () => {
    expect(fields.name).toHaveProperty('value', '  Ada  ')
    expect(fields.contact).toHaveProperty('value', '@ada_l')
    expect(fields.project_type).toHaveProperty('value', 'community-building')
    expect(fields.budget).toHaveProperty('value', '25k-50k')
    expect(fields.message).toHaveProperty('value', 'Grow our Telegram to 50k.')
  }
  return {
    dependencies,
    user,
    fields,
    submit,
    submitAndWait,
    submitPastDeadline,
    fillRequired,
    fillAll,
    sealed,
    receipts,
    expectEveryValueKept,
  }
}

/** What a screen reader reads after the field's name: its aria-describedby elements' text. */
const description = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .filter(Boolean)
    .join(' ')

/** The polite live region tied to a field by aria-describedby (its note). */
const liveNote = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .find((element) => element?.getAttribute('aria-live') === 'polite')

const toastTitles = () => getToasts().map((toast) => toast.title)

beforeEach(() => resetToasts())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('ContactForm', () => {
  it('opens empty, with a value for every field of the schema, and has the spec required-fields message', () => {
    expect(Object.keys(EMPTY_CONTACT_FORM)).toEqual(Object.keys(submissionFieldsSchema.shape))
    expect(REQUIRED_FIELDS_MESSAGE).toBe('All required fields must be filled.')
  })

  it('shows the spec fields with labels, placeholders, required markers and options', () => {
    const { fields } = setup()
    expect(fields.name).toHaveProperty('placeholder', 'Your name or preferred alias')
    expect(fields.contact).toHaveProperty('placeholder', 'Email / Telegram / WhatsApp')
    for (const field of [fields.name, fields.contact, fields.message])
      expect(field).toHaveProperty('required', true)
    for (const field of [fields.project_type, fields.budget])
      expect(field).toHaveProperty('required', false)
    const values = (select: HTMLElement) =>
      [...(select as HTMLSelectElement).options].map((option) => option.value)
    expect(values(fields.project_type)).toEqual([
      '',
      ...PROJECT_TYPE_OPTIONS.map((option) => option.value),
    ])
    expect(values(fields.budget)).toEqual(['', ...BUDGET_OPTIONS.map((option) => option.value)])
    expect(fields.message.className).toContain('min-h-[150px]')
  })

  it('loads the sealer once, when the visitor first focuses the form', async () => {
    const { dependencies, user, fields } = setup()
    expect(dependencies.preload).not.toHaveBeenCalled()
    await user.click(fields.name)
    await user.type(fields.message, 'Hi')
    expect(dependencies.preload).toHaveBeenCalledTimes(1)
  })

  it('refuses whitespace-only required fields with the spec toast, field messages, and nothing sealed or sent', async () => {
    const { dependencies, user, fields, submit } = setup()
    await user.type(fields.name, '   ')
    await user.type(fields.contact, '  ')
    await user.type(fields.message, '  ')
    await submit()
    expect(toastTitles()).toEqual([REQUIRED_FIELDS_MESSAGE])
    expect(dependencies.seal).not.toHaveBeenCalled()
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(fields.name.getAttribute('aria-invalid')).toBe('true')
    expect(description(fields.name)).toBe('Enter your name or an alias.')
    expect(fields.name).toHaveProperty('value', '   ')
  })

  it('seals the trimmed document with a fresh uuid, sends only the sealed row, then clears the form', async () => {
    const { dependencies, fields, submit, fillAll, sealed } = setup()
    await fillAll()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.sent.title]))
    expect(getToasts()[0]?.description).toBe(submitToasts.sent.description)
    const [draft] = sealed()
    expect(draft).toEqual({
      id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      fields: {
        name: 'Ada',
        contact: '@ada_l',
        project_type: 'community-building',
        budget: '25k-50k',
        message: 'Grow our Telegram to 50k.',
      },
      userAgent: navigator.userAgent,
      now: expect.any(Number),
      files: [],
    })
    // A new draft: the sealer makes its receipt.
    expect(dependencies.seal.mock.calls[0]?.[1]).toBeNull()
    expect(dependencies.send).toHaveBeenCalledWith(
      sealedInquiryFor(draft!).row,
      expect.any(AbortSignal),
    )
    for (const field of Object.values(fields)) expect(field).toHaveProperty('value', '')
  })

  it('sends null for both dropdowns when they were never touched', async () => {
    const { submit, fillRequired, sealed } = setup()
    await fillRequired()
    await submit()
    await waitFor(() => expect(sealed()).toHaveLength(1))
    expect(sealed()[0]?.fields).toMatchObject({ project_type: null, budget: null })
  })

  it('keeps "Encrypting & Sending..." on the disabled button and adds a still-sending line after a few seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let answer: (outcome: SendOutcome) => void = () => {}
    const send = vi.fn(() => new Promise<SendOutcome>((resolve) => (answer = resolve)))
    const { submit, fillRequired } = setup({ send })
    await fillRequired()
    await submit()
    const button = await screen.findByRole('button', { name: formCopy.sending })
    expect(button).toHaveProperty('disabled', true)
    expect(screen.queryByText(formCopy.stillSending)).toBeNull()
    await act(async () => vi.advanceTimersByTime(STILL_SENDING_AFTER_MS))
    expect(screen.getByText(formCopy.stillSending)).toBeTruthy()
    expect(button.textContent).toBe(formCopy.sending)
    await act(async () => answer({ kind: 'delivered' }))
    expect(await screen.findByRole('button', { name: formCopy.submit })).toHaveProperty(
      'disabled',
      false,
    )
    expect(screen.queryByText(formCopy.stillSending)).toBeNull()
  })

  it('never says "already encrypted" before the message is sealed: the still-sending wait starts at the seal', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const seal = vi.fn(
      (draft: InquiryDraft) =>
        new Promise<SealedInquiry>((resolve) =>
          setTimeout(() => resolve(sealedInquiryFor(draft)), 3_000),
        ),
    )
    const { submitAndWait, fillRequired } = setup({
      seal,
      send: neverAnswers(),
    })
    await fillRequired()
    await submitAndWait()
    // 4 s after Send, but only 1 s after the seal: the send itself is not slow yet.
    await act(() => vi.advanceTimersByTimeAsync(STILL_SENDING_AFTER_MS))
    expect(seal).toHaveBeenCalledTimes(1)
    expect(screen.queryByText(formCopy.stillSending)).toBeNull()
    expect(screen.queryByText(formCopy.stillEncrypting)).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(3_000))
    expect(screen.getByText(formCopy.stillSending)).toBeTruthy()
  })

  it('while the encryption code is slow to load, says only that; once sealed, says it is still sending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let finishSeal: () => void = () => {}
    const seal = vi.fn(
      (draft: InquiryDraft) =>
        new Promise<SealedInquiry>(
          (resolve) => (finishSeal = () => resolve(sealedInquiryFor(draft))),
        ),
    )
    const { submitAndWait, fillRequired } = setup({
      seal,
      send: neverAnswers(),
    })
    await fillRequired()
    await submitAndWait()
    await act(async () => vi.advanceTimersByTime(STILL_SENDING_AFTER_MS + 2_000))
    expect(screen.getByText(formCopy.stillEncrypting)).toBeTruthy()
    expect(screen.queryByText(formCopy.stillSending)).toBeNull()
    // The wait has already been long: no second few seconds of silence once it is sealed.
    await act(async () => finishSeal())
    expect(screen.getByText(formCopy.stillSending)).toBeTruthy()
    expect(screen.queryByText(formCopy.stillEncrypting)).toBeNull()
  })

  it('ends a stalled load of the encryption code at the deadline: nothing sent, a sentence, every value kept', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { dependencies, submitPastDeadline, fillAll, expectEveryValueKept } = setup({
      seal: vi.fn(() => new Promise<SealedInquiry>(() => {})),
    })
    await fillAll()
    await submitPastDeadline()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.failed.title]))
    expect(getToasts()[0]).toMatchObject({
      description: submitToasts.notSealedInTime,
      variant: 'destructive',
    })
    expect(await screen.findByRole('button', { name: formCopy.submit })).toHaveProperty(
      'disabled',
      false,
    )
    expect(screen.queryByText(formCopy.stillEncrypting)).toBeNull()
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(dependencies.enqueue).not.toHaveBeenCalled()
    expectEveryValueKept()
  })

  it('queues the sealed row when the sender has not answered by the deadline, and clears the form', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { dependencies, fields, submitPastDeadline, fillRequired } = setup({
      send: neverAnswers(),
    })
    await fillRequired()
    await submitPastDeadline()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.queued.title]))
    expect(dependencies.enqueue).toHaveBeenCalledTimes(1)
    expect(fields.message).toHaveProperty('value', '')
  })

  it('keeps every value and shows a human message when the backend refuses; the detail goes to the console only', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const detail =
      'HTTP 400 23514: new row violates check constraint "contact_submissions_sealed_check"'
    const send = vi.fn(async (): Promise<SendOutcome> => ({
      kind: 'refused',
      reason: 'notAccepted',
      detail,
    }))
    const { submit, fillAll, expectEveryValueKept } = setup({ send })
    await fillAll()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.failed.title]))
    expect(getToasts()[0]).toMatchObject({
      description: failureMessages.notAccepted,
      variant: 'destructive',
    })
    expect(consoleError).toHaveBeenCalledWith('Contact submission failed:', detail)
    expectEveryValueKept()
  })

  it('keeps every value and sends nothing when sealing fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new SealError('no-webcrypto')
    const { dependencies, fields, submit, fillRequired } = setup({
      seal: vi.fn(async () => Promise.reject(failure)),
    })
    await fillRequired()
    await submit()
    await waitFor(() => expect(getToasts()[0]?.description).toBe(sealingFailures['no-webcrypto']))
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(dependencies.enqueue).not.toHaveBeenCalled()
    expect(fields.message).toHaveProperty('value', 'Grow our Telegram to 50k.')
  })

  it('queues the sealed row when offline, tells the visitor, and clears the form', async () => {
    const { dependencies, fields, submit, fillRequired } = setup({ isOnline: () => false })
    await fillRequired()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.queued.title]))
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(dependencies.enqueue).toHaveBeenCalledWith(
      {
        kind: 'inquiry',
        row: expect.objectContaining({ key_id: '0123456789abcdef' }) as unknown,
      },
      expect.any(AbortSignal),
    )
    expect(fields.message).toHaveProperty('value', '')
  })

  it('seals a retried draft under the same id and receipt, and a new draft under new ones', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const outcomes: SendOutcome[] = [
      { kind: 'server-error', reason: 'serverError', detail: 'HTTP 500' },
    ]
    const send = vi.fn(async (): Promise<SendOutcome> => outcomes.shift() ?? { kind: 'delivered' })
    const { submit, fillRequired, sealed, receipts } = setup({ send })
    await fillRequired()
    await submit()
    await waitFor(() => expect(toastTitles()).toContain(submitToasts.failed.title))
    await submit()
    await waitFor(() => expect(toastTitles()).toContain(submitToasts.sent.title))
    await fillRequired()
    await submit()
    await waitFor(() => expect(send).toHaveBeenCalledTimes(3))
    const ids = sealed().map((document) => document.id)
    expect(ids[0]).toBe(ids[1])
    expect(ids[2]).not.toBe(ids[0])
    // The first try was sealed (and might have been stored): its retry keeps its receipt, so the
    // receipt shown opens whichever row the database kept. A new draft gets a new one.
    expect(receipts()).toEqual([null, TEST_RECEIPT, null])
  })

  it('shows the panel above the cleared form after Send, with the reference and the receipt, until "Send another message"', async () => {
    const { submit, fillRequired, sealed, user, fields } = setup()
    await fillRequired()
    await submit()
    const panel = await screen.findByRole('region', { name: panelCopy.heading })
    expect(panel.textContent).toContain(sealed()[0]!.id.slice(0, 8))
    // The words numbered, in order.
    expect(panel.textContent).toContain(
      TEST_RECEIPT.split(' ')
        .map((word, index) => `${index + 1}.${word}`)
        .join(''),
    )
    expect(panel.textContent).toContain(panelCopy.status.sent)
    expect(fields.message).toHaveProperty('value', '')
    await user.click(screen.getByRole('button', { name: panelCopy.another }))
    expect(screen.queryByRole('region', { name: panelCopy.heading })).toBeNull()
    expect(document.activeElement).toBe(fields.name)
  })

  it('says the inquiry waits on this device when it was queued', async () => {
    const { submit, fillRequired } = setup({ isOnline: () => false })
    await fillRequired()
    await submit()
    const panel = await screen.findByRole('region', { name: panelCopy.heading })
    expect(panel.textContent).toContain(panelCopy.status.waiting)
  })

  it('leaves no validation toast behind once the message is sent', async () => {
    const { submit, fillRequired } = setup()
    await submit()
    expect(toastTitles()).toEqual([REQUIRED_FIELDS_MESSAGE])
    await fillRequired()
    await submit()
    await waitFor(() =>
      expect(
        getToasts()
          .filter((toast) => toast.open)
          .map((toast) => toast.title),
      ).toEqual([submitToasts.sent.title]),
    )
  })
})

describe('ContactForm: nothing typed is cut off', () => {
  const BRIEF_OVER =
    'The brief is 6,000 characters; the limit is 5,000: shorten it, or send the rest in a second message'

  it('keeps a pasted 6,000-character brief whole, says the sentence, and sends nothing', async () => {
    const { dependencies, user, fields, submit } = setup()
    await user.type(fields.name, 'Ada')
    await user.type(fields.contact, '@ada_l')
    const brief = 'x'.repeat(6000)
    await user.click(fields.message)
    await user.paste(brief)
    for (const field of [fields.name, fields.contact, fields.message])
      expect(field.hasAttribute('maxlength')).toBe(false)
    expect(fields.message).toHaveProperty('value', brief)
    expect(liveNote(fields.message)?.textContent).toBe(BRIEF_OVER)
    expect(fields.message.getAttribute('aria-invalid')).toBe('true')
    await submit()
    expect(toastTitles()).toEqual([submitToasts.invalid.title])
    expect(dependencies.seal).not.toHaveBeenCalled()
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(dependencies.enqueue).not.toHaveBeenCalled()
    expect(fields.message).toHaveProperty('value', brief)
    // Said once, not once in the note and again as the submit's error.
    expect(description(fields.message)).toBe(BRIEF_OVER)
    expect(screen.getAllByText(BRIEF_OVER)).toHaveLength(1)
  })

  it('sends once the brief is shortened to the limit', async () => {
    const { dependencies, user, fields, submit } = setup()
    await user.type(fields.name, 'Ada')
    await user.type(fields.contact, '@ada_l')
    await user.click(fields.message)
    await user.paste('x'.repeat(5001))
    expect(liveNote(fields.message)?.textContent).toBe(
      'The brief is 5,001 characters; the limit is 5,000: shorten it, or send the rest in a second message',
    )
    await user.type(fields.message, '{Backspace}')
    expect(liveNote(fields.message)?.textContent).toBe('0 characters left')
    expect(fields.message.getAttribute('aria-invalid')).toBe('false')
    await submit()
    await waitFor(() => expect(dependencies.send).toHaveBeenCalledTimes(1))
    expect(dependencies.seal.mock.calls[0]?.[0].fields.message).toHaveLength(5000)
  })

  it('counts down from 80 % of each limit in a polite live region tied to the field', async () => {
    const { user, fields } = setup()
    for (const [field, limit] of [
      [fields.name, 120],
      [fields.contact, 200],
      [fields.message, 5000],
    ] as const) {
      const near = Math.ceil(limit * 0.8)
      await user.click(field)
      await user.paste('y'.repeat(near - 1))
      // Present and empty before the limit nears, so it is announced when it changes.
      expect(liveNote(field)?.textContent).toBe('')
      await user.type(field, 'y')
      expect(liveNote(field)?.textContent).toBe(
        `${(limit - near).toLocaleString('en-US')} characters left`,
      )
    }
  })

  it('gives the name and the contact their own over-limit sentence, typed past the limit', async () => {
    const { dependencies, user, fields, submit } = setup()
    await user.click(fields.name)
    await user.paste('n'.repeat(120))
    await user.type(fields.name, 'nn')
    expect(fields.name).toHaveProperty('value', 'n'.repeat(122))
    expect(liveNote(fields.name)?.textContent).toBe(
      'The name is 122 characters; the limit is 120: shorten it',
    )
    await user.click(fields.contact)
    await user.paste('c'.repeat(1500))
    expect(liveNote(fields.contact)?.textContent).toBe(
      'The contact is 1,500 characters; the limit is 200: shorten it',
    )
    await user.type(fields.message, 'A short brief.')
    await submit()
    expect(dependencies.seal).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(fields.name)
  })

  describe('attachments', () => {
    const file = (name: string, size: number, type = 'application/pdf') =>
      new File([new Uint8Array(size)], name, { type })
    const picker = () => screen.getByLabelText(attachmentsCopy.label) as HTMLInputElement

    it('lists each file with its name, size and a Remove button, beside the limits', async () => {
      const { dependencies, user, fields } = setup()
      expect(screen.getByText(attachmentsCopy.limits)).toBeTruthy()
      await user.click(fields.name)
      // Focusing the form loads the sealer, not what seals files: that waits for a file.
      expect(dependencies.preloadFiles).not.toHaveBeenCalled()
      await user.upload(picker(), [file('deck.pdf', 2048), file('shot.png', 10, 'image/png')])
      expect(dependencies.preloadFiles).toHaveBeenCalled()
      const list = screen.getByRole('list', { name: attachmentsCopy.listLabel })
      expect(list.textContent).toContain('deck.pdf (2.0 KB)')
      expect(list.textContent).toContain('shot.png (10 bytes)')
      await user.click(
        screen.getByRole('button', { name: attachmentsCopy.removeLabel('deck.pdf') }),
      )
      expect(list.textContent).not.toContain('deck.pdf')
      expect(document.activeElement).toBe(picker())
    })

    it('says what is wrong in a sentence and seals nothing: too many, too large, empty', async () => {
      const { dependencies, user, submit, fillRequired } = setup()
      await fillRequired()
      const sixth = Array.from({ length: 6 }, (_, index) => file(`f${index}.txt`, 1))
      await user.upload(picker(), sixth)
      expect(screen.getByText(attachmentsCopy.tooMany(6))).toBeTruthy()
      expect(picker().getAttribute('aria-invalid')).toBe('true')
      await submit()
      expect(dependencies.seal).not.toHaveBeenCalled()
      expect(document.activeElement).toBe(picker())
      for (let index = 0; index < 6; index++) {
        await user.click(screen.getAllByRole('button', { name: /^Remove / })[0]!)
      }
      const big = { name: 'big.mov', size: 25 * 1024 * 1024 + 1 }
      await user.upload(
        picker(),
        Object.defineProperty(file(big.name, 1), 'size', { value: big.size }),
      )
      expect(screen.getByText(attachmentsCopy.tooLarge(big.name, big.size))).toBeTruthy()
      await user.click(screen.getByRole('button', { name: attachmentsCopy.removeLabel(big.name) }))
      await user.upload(picker(), file('blank.txt', 0))
      expect(screen.getByText(attachmentsCopy.empty('blank.txt'))).toBeTruthy()
      await submit()
      expect(dependencies.seal).not.toHaveBeenCalled()
    })

    it('hands the files to the sealer, keeps them after a failure and clears them once sent', async () => {
      let outcome: SendOutcome = { kind: 'refused', reason: 'notAccepted', detail: 'HTTP 400' }
      const { dependencies, user, submit, fillRequired } = setup({ send: async () => outcome })
      await fillRequired()
      const deck = file('deck.pdf', 4096)
      await user.upload(picker(), deck)
      await submit()
      await waitFor(() => expect(dependencies.send).toHaveBeenCalledTimes(1))
      expect(dependencies.seal.mock.calls[0]?.[0].files).toEqual([deck])
      expect(screen.getByRole('list', { name: attachmentsCopy.listLabel }).textContent).toContain(
        'deck.pdf',
      )
      outcome = { kind: 'delivered' }
      await submit()
      await waitFor(() => expect(dependencies.send).toHaveBeenCalledTimes(2))
      await waitFor(() =>
        expect(screen.queryByRole('list', { name: attachmentsCopy.listLabel })).toBeNull(),
      )
    })
  })
})
