// @vitest-environment jsdom
// The optional dropdowns' "not chosen" state, from the visitor's side: whatever path leads back to
// the empty choice, the sealed document says null (spec §5), never "" or a stale option.
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { resetToasts } from '../../components/toast/toast-store'
import { formCopy } from './contact-copy'
import { ContactForm } from './contact-form'
import { fakeDependencies } from './contact-test-fixtures'

function renderForm() {
  const dependencies = fakeDependencies()
  const { seal } = dependencies
  // The panel shown after Send links to /replies: the form lives inside the site's router.
  render(
    <MemoryRouter>
      <ContactForm dependencies={dependencies} />
    </MemoryRouter>,
  )
  const user = userEvent.setup()
  const projectType = screen.getByRole('combobox', { name: formCopy.projectType.label })
  const budget = screen.getByRole('combobox', { name: formCopy.budget.label })
  const send = async () => {
    await user.type(screen.getByRole('textbox', { name: /Name \/ Alias/ }), 'Ada')
    await user.type(screen.getByRole('textbox', { name: /Primary Contact/ }), '@ada_l')
    await user.type(screen.getByRole('textbox', { name: /Project Brief/ }), 'A quiet launch.')
    const before = seal.mock.calls.length
    await user.click(screen.getByRole('button', { name: formCopy.submit }))
    await waitFor(() => expect(seal.mock.calls.length).toBe(before + 1))
    return seal.mock.calls.at(-1)![0].fields
  }
  return { user, projectType, budget, send }
}

beforeEach(() => resetToasts())
afterEach(() => cleanup())

it('starts with both dropdowns on their empty choice', () => {
  const { projectType, budget } = renderForm()
  expect(projectType).toHaveProperty('value', '')
  expect(budget).toHaveProperty('value', '')
  expect((projectType as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
    formCopy.projectType.emptyOption,
  )
  expect((budget as HTMLSelectElement).selectedOptions[0]?.textContent).toBe(
    formCopy.budget.emptyOption,
  )
})

it('sends null for a dropdown chosen and then set back to its empty choice', async () => {
  const { user, projectType, budget, send } = renderForm()
  await user.selectOptions(projectType, 'other')
  await user.selectOptions(budget, 'discuss')
  await user.selectOptions(projectType, '')
  await user.selectOptions(budget, '')

  expect(await send()).toMatchObject({ project_type: null, budget: null })
})

it('after a message is sent, the next one starts from the empty choices again and sends null', async () => {
  const { user, projectType, budget, send } = renderForm()
  await user.selectOptions(projectType, 'other')
  await user.selectOptions(budget, 'discuss')
  expect(await send()).toMatchObject({ project_type: 'other', budget: 'discuss' })

  expect(projectType).toHaveProperty('value', '')
  expect(budget).toHaveProperty('value', '')
  expect(await send()).toMatchObject({ project_type: null, budget: null })
})
