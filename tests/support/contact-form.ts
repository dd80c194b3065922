import { expect, type Page } from '@playwright/test'
import { formCopy } from '../../src/features/contact/contact-copy'

export type ContactValues = {
  name: string
  contact: string
  projectType?: string
  budget?: string
  message: string
}

/** The form's controls, found as a visitor (or a screen reader) finds them: by label. */
export function contactForm(page: Page) {
  return {
    name: page.getByLabel(formCopy.name.label),
    contact: page.getByLabel(formCopy.contact.label),
    projectType: page.getByLabel(formCopy.projectType.label, { exact: true }),
    budget: page.getByLabel(formCopy.budget.label),
    message: page.getByLabel(formCopy.message.label),
    submit: page.getByRole('button', { name: formCopy.submit }),
  }
}

/** Opens /contact and waits until the form is live (its fields are disabled until hydration). */
export async function openContactPage(page: Page): Promise<void> {
  await page.goto('/contact')
  await expect(contactForm(page).name).toBeEnabled()
}

export async function fillContactForm(page: Page, values: ContactValues): Promise<void> {
  const form = contactForm(page)
  await form.name.fill(values.name)
  await form.contact.fill(values.contact)
  if (values.projectType !== undefined) await form.projectType.selectOption(values.projectType)
  if (values.budget !== undefined) await form.budget.selectOption(values.budget)
  await form.message.fill(values.message)
}

export async function expectFormValues(page: Page, values: Required<ContactValues>): Promise<void> {
  const form = contactForm(page)
  await expect(form.name).toHaveValue(values.name)
  await expect(form.contact).toHaveValue(values.contact)
  await expect(form.projectType).toHaveValue(values.projectType)
  await expect(form.budget).toHaveValue(values.budget)
  await expect(form.message).toHaveValue(values.message)
}

/**
 * A toast in the Radix notifications region (each is a list item there; Radix announces it to
 * screen readers through a separate live region).
 */
export function toast(page: Page, title: string) {
  return page.getByRole('region', { name: /Notifications/ }).locator('li').filter({ hasText: title })
}

/** The Supabase insert, as a Playwright route pattern. */
export const INSERT_URL = '**/rest/v1/contact_submissions'

/** A failure on the server's side, answered the way PostgREST words one (a 500 with its error envelope). */
export function serverErrorAnswer(message: string) {
  return {
    status: 500,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ code: 'XX000', details: null, hint: null, message }),
  }
}

/** Requests the page makes to the Supabase insert, recorded for assertions. */
export function recordInserts(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/contact_submissions') && request.method() === 'POST') {
      seen.push(request.postData() ?? '')
    }
  })
  return seen
}

/**
 * Makes the real database refuse this page's inserts: each row goes out with `override` merged in
 * (a value a check constraint rejects), so the refusal is PostgreSQL's own, not a faked answer.
 */
export async function refuseInserts(page: Page, override: Record<string, unknown>): Promise<void> {
  await page.route(INSERT_URL, async (route) => {
    const row = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>
    await route.continue({ postData: JSON.stringify({ ...row, ...override }) })
  })
}
