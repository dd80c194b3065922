// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getToasts, resetToasts } from '../../components/toast/toast-store'
import { BUDGET_OPTIONS, PROJECT_TYPE_OPTIONS } from './contact-fields'
import { formCopy, REQUIRED_FIELDS_MESSAGE, submitToasts } from './contact-copy'
import { ContactForm } from './contact-form'
import type { ContactSubmission } from './contact-schema'
import { returnSubmission } from './returned-submissions'
import type { SendOutcome } from './send-outcome'
import type { SubmitDependencies } from './submit-contact'

type Deferred = { resolve: (outcome: SendOutcome) => void }

function setup(overrides: Partial<SubmitDependencies> = {}) {
  const dependencies: SubmitDependencies = {
    send: vi.fn(async () => ({ kind: 'delivered' }) as const),
    enqueue: vi.fn(async () => {}),
    isOnline: () => true,
    ...overrides,
  }
  const user = userEvent.setup()
  render(<ContactForm dependencies={dependencies} />)
  const fields = {
    name: screen.getByRole('textbox', { name: /Name \/ Alias/ }),
    contact: screen.getByRole('textbox', { name: /Primary Contact/ }),
    projectType: screen.getByRole('combobox', { name: 'Project Type' }),
    budget: screen.getByRole('combobox', { name: 'Budget Range (Optional)' }),
    message: screen.getByRole('textbox', { name: /Project Brief/ }),
  }
  const submit = () => user.click(screen.getByRole('button', { name: formCopy.submit }))
  const fillValid = async () => {
    await user.type(fields.name, '  Ada  ')
    await user.type(fields.contact, '@ada_l')
    await user.selectOptions(fields.projectType, 'community-building')
    await user.selectOptions(fields.budget, '25k-50k')
    await user.type(fields.message, 'Grow our Telegram to 50k.')
  }
  return { dependencies, user, fields, submit, fillValid }
}

const toastTitles = () => getToasts().map((toast) => toast.title)

beforeEach(() => resetToasts())
afterEach(() => cleanup())

describe('ContactForm', () => {
  it('shows the spec fields with labels, placeholders, required markers and options', () => {
    const { fields } = setup()
    expect(fields.name).toHaveProperty('placeholder', 'Your name or preferred alias')
    expect(fields.contact).toHaveProperty('placeholder', 'Email / Telegram / WhatsApp')
    for (const field of [fields.name, fields.contact, fields.message]) expect(field).toHaveProperty('required', true)
    for (const field of [fields.projectType, fields.budget]) expect(field).toHaveProperty('required', false)
    const values = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((option) => option.value)
    expect(values(fields.projectType)).toEqual(['', ...PROJECT_TYPE_OPTIONS.map((option) => option.value)])
    expect(values(fields.budget)).toEqual(['', ...BUDGET_OPTIONS.map((option) => option.value)])
    expect(fields.message.className).toContain('min-h-[150px]')
  })

  it('refuses whitespace-only required fields with the spec toast, field messages, and no request', async () => {
    const { dependencies, user, fields, submit } = setup()
    await user.type(fields.name, '   ')
    await user.type(fields.contact, '  ')
    await user.type(fields.message, '  ')
    await submit()
    expect(toastTitles()).toEqual([REQUIRED_FIELDS_MESSAGE])
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(fields.name.getAttribute('aria-invalid')).toBe('true')
    const describedBy = fields.name.getAttribute('aria-describedby')
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('Enter your name or an alias.')
    expect(fields.name).toHaveProperty('value', '   ')
  })

  it('sends the trimmed row with a fresh uuid and the user agent, then clears the form and both dropdowns', async () => {
    const { dependencies, fields, submit, fillValid } = setup()
    await fillValid()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.sent.title]))
    expect(getToasts()[0]?.description).toBe(submitToasts.sent.description)
    const row = vi.mocked(dependencies.send).mock.calls[0]?.[0] as ContactSubmission
    expect(row).toMatchObject({
      name: 'Ada',
      contact: '@ada_l',
      project_type: 'community-building',
      budget: '25k-50k',
      message: 'Grow our Telegram to 50k.',
      user_agent: navigator.userAgent,
    })
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    for (const field of Object.values(fields)) expect(field).toHaveProperty('value', '')
  })

  it('disables the button and shows the sending label while the request is in flight', async () => {
    let pending: Deferred | undefined
    const send = vi.fn(() => new Promise<SendOutcome>((resolve) => (pending = { resolve })))
    const { submit, fillValid } = setup({ send })
    await fillValid()
    await submit()
    const button = await screen.findByRole('button', { name: formCopy.sending })
    expect(button).toHaveProperty('disabled', true)
    await act(async () => pending?.resolve({ kind: 'delivered' }))
    expect(await screen.findByRole('button', { name: formCopy.submit })).toHaveProperty('disabled', false)
  })

  it('keeps every value and shows the destructive toast with the error message when the insert fails', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const send = vi.fn(async () => ({ kind: 'rejected', status: 400, message: 'violates check constraint' }) as const)
    const { fields, submit, fillValid } = setup({ send })
    await fillValid()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.failed.title]))
    expect(getToasts()[0]).toMatchObject({ description: 'violates check constraint', variant: 'destructive' })
    expect(consoleError).toHaveBeenCalled()
    expect(fields.name).toHaveProperty('value', '  Ada  ')
    expect(fields.projectType).toHaveProperty('value', 'community-building')
    expect(fields.budget).toHaveProperty('value', '25k-50k')
    expect(fields.message).toHaveProperty('value', 'Grow our Telegram to 50k.')
    consoleError.mockRestore()
  })

  it('queues the row when offline, tells the visitor, and clears the form', async () => {
    const { dependencies, fields, submit, fillValid } = setup({ isOnline: () => false })
    await fillValid()
    await submit()
    await waitFor(() => expect(toastTitles()).toEqual([submitToasts.queued.title]))
    expect(dependencies.send).not.toHaveBeenCalled()
    expect(dependencies.enqueue).toHaveBeenCalledTimes(1)
    expect(fields.message).toHaveProperty('value', '')
  })

  it('restores a refused submission into the empty form and releases its outbox copy only once resent', async () => {
    const { dependencies, submit } = setup()
    const fields = {
      name: screen.getByRole('textbox', { name: /Name \/ Alias/ }),
      projectType: screen.getByRole('combobox', { name: 'Project Type' }),
      budget: screen.getByRole('combobox', { name: 'Budget Range (Optional)' }),
      message: screen.getByRole('textbox', { name: /Project Brief/ }),
    }
    const release = vi.fn(async () => {})
    const id = '0b6f1f3c-8f4e-4a57-9a53-5f5f2a4a0c11'
    act(() =>
      returnSubmission({
        submission: {
          id,
          name: 'Bo',
          contact: 'bo@example.com',
          project_type: 'other',
          budget: null,
          message: 'Please call back.',
          user_agent: 'x',
        },
        release,
      }),
    )
    await waitFor(() => expect(fields.name).toHaveProperty('value', 'Bo'))
    expect(fields.projectType).toHaveProperty('value', 'other')
    expect(fields.budget).toHaveProperty('value', '')
    expect(fields.message).toHaveProperty('value', 'Please call back.')
    expect(release).not.toHaveBeenCalled()

    await submit()
    await waitFor(() => expect(release).toHaveBeenCalledTimes(1))
    expect(vi.mocked(dependencies.send).mock.calls[0]?.[0]).toMatchObject({ id, name: 'Bo' })
  })

  it('sends a retried draft under the same id, and a new draft under a new one', async () => {
    const outcomes: SendOutcome[] = [
      { kind: 'retryable', status: 502, message: 'Bad gateway' },
      { kind: 'delivered' },
      { kind: 'delivered' },
    ]
    const send = vi.fn(async () => outcomes.shift() ?? ({ kind: 'delivered' } as const))
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { submit, fillValid } = setup({ send })
    await fillValid()
    await submit()
    await waitFor(() => expect(toastTitles()).toContain(submitToasts.failed.title))
    await submit()
    await waitFor(() => expect(toastTitles()).toContain(submitToasts.sent.title))
    await fillValid()
    await submit()
    await waitFor(() => expect(send).toHaveBeenCalledTimes(3))
    const ids = send.mock.calls.map((call) => (call as unknown as [ContactSubmission])[0].id)
    expect(ids[0]).toBe(ids[1])
    expect(ids[2]).not.toBe(ids[0])
    consoleError.mockRestore()
  })
})
