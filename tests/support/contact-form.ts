import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect, type Page, type Response } from '@playwright/test'
import { formCopy, submitToasts } from '../../src/features/contact/contact-copy'
import { panelCopy } from '../../src/features/contact/inquiry-panel-copy'
import type { SealedRow } from '../../src/shared/database-types'

/** What a visitor types and picks, under the submission's own field names. */
export type ContactValues = {
  name: string
  contact: string
  project_type?: string
  budget?: string
  message: string
}

/** The form's controls, found as a visitor (or a screen reader) finds them: by label. */
export function contactForm(page: Page) {
  return {
    name: page.getByLabel(formCopy.name.label),
    contact: page.getByLabel(formCopy.contact.label),
    project_type: page.getByLabel(formCopy.projectType.label, { exact: true }),
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

/**
 * Fills the form as a visitor does; after a message was sent, the form shows again only once
 * "Send another message" is pressed, so that comes first.
 */
export async function fillContactForm(page: Page, values: ContactValues): Promise<void> {
  const form = contactForm(page)
  const another = page.getByRole('button', { name: panelCopy.another })
  if (await another.isVisible()) await another.click()
  await form.name.fill(values.name)
  await form.contact.fill(values.contact)
  if (values.project_type !== undefined) await form.project_type.selectOption(values.project_type)
  if (values.budget !== undefined) await form.budget.selectOption(values.budget)
  await form.message.fill(values.message)
}

/** The crypto chunk (age): its own file, which the page fetches once the visitor starts on the form. */
export const SEALER_CHUNK = /\/assets\/seal-submission-[\w-]+\.js$/

/** The engine that seals files (WebAssembly): its own file, fetched once a file is attached. */
export const FILE_ENGINE_CHUNK = /\/assets\/wasm-seal-engine-[\w-]+\.js$/

/** The worker that hashes a file while the engine encrypts it: started with the engine. */
export const HASH_WORKER_SCRIPT = /\/assets\/sha256-worker-[\w-]+\.js$/

/** Focuses the form's first field, as a visitor starting on it, and answers the crypto chunk's response. */
export async function startOnForm(page: Page): Promise<Response> {
  const sealerLoaded = page.waitForResponse((response) =>
    SEALER_CHUNK.test(new URL(response.url()).pathname),
  )
  await contactForm(page).name.focus()
  return sealerLoaded
}

/** Fills the form and presses Send, as a visitor does (the form must be open and live). */
export async function fillAndSend(page: Page, values: ContactValues): Promise<void> {
  await fillContactForm(page, values)
  await contactForm(page).submit.click()
}

/** Opens /contact, fills the form and presses Send. */
export async function openFillAndSend(page: Page, values: ContactValues): Promise<void> {
  await openContactPage(page)
  await fillAndSend(page, values)
}

export async function expectFormValues(page: Page, values: Required<ContactValues>): Promise<void> {
  const form = contactForm(page)
  await expect(form.name).toHaveValue(values.name)
  await expect(form.contact).toHaveValue(values.contact)
  await expect(form.project_type).toHaveValue(values.project_type)
  await expect(form.budget).toHaveValue(values.budget)
  await expect(form.message).toHaveValue(values.message)
}

/**
 * A toast in the Radix notifications region (each is a list item there; Radix announces it to
 * screen readers through a separate live region).
 */
export function toast(page: Page, title: string) {
  return page
    .getByRole('region', { name: /Notifications/ })
    .locator('li')
    .filter({ hasText: title })
}

/**
 * The text of every toast the page shows from now on, in order, even one replaced within a moment
 * (a toast about a message replaces the older toast about the same message). Read it with the
 * function this returns.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { shownToasts: string[] }).shownToasts = seen
    new MutationObserver(() => {
      for (const item of document.querySelectorAll('[role="region"] li')) {
        const text = item.textContent ?? ''
        if (text && !seen.includes(text)) seen.push(text)
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true })
  })
  return () => page.evaluate(() => (window as unknown as { shownToasts: string[] }).shownToasts)
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

/** The bodies of the inserts the page sends, parsed, in order. */
export function recordInserts(page: Page): SealedRow[] {
  const seen: SealedRow[] = []
  page.on('request', (request) => {
    if (request.url().includes('/rest/v1/contact_submissions') && request.method() === 'POST') {
      seen.push(JSON.parse(request.postData() ?? 'null') as SealedRow)
    }
  })
  return seen
}

/** Opens /contact, sends `values`, waits until the toast says it went; returns the row's id. */
export async function sendInquiry(page: Page, values: ContactValues): Promise<string> {
  const inserts = recordInserts(page)
  await openFillAndSend(page, values)
  await expect(toast(page, submitToasts.sent.title)).toBeVisible()
  const id = inserts[0]?.id
  expect(id, 'the form sent an insert').toBeTruthy()
  return id ?? ''
}

/** Every request body the page sends to the Supabase REST API, as text. */
export function recordRestBodies(page: Page): string[] {
  const bodies: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/rest/v1/'))
      bodies.push(request.postData() ?? '')
  })
  return bodies
}

/**
 * Makes the real database refuse this page's inserts: each row goes out with `override` merged in
 * (a key the database does not know, an armor it does not accept), so the refusal is PostgreSQL's
 * own, not a faked answer.
 */
export async function refuseInserts(page: Page, override: Partial<SealedRow>): Promise<void> {
  await page.route(INSERT_URL, async (route) => {
    const row = JSON.parse(route.request().postData() ?? '{}') as SealedRow
    await route.continue({ postData: JSON.stringify({ ...row, ...override }) })
  })
}

/** The e2e backend's folder (tests/playwright.config.ts): its development identity opens what the site sealed. */
const E2E_DEV_IDENTITY = resolve('node_modules/.cache/e2e-backend/dev-identity.txt')

/**
 * Opens a sealed row with the stock `age` command and the development identity, as staff would
 * with `age -d -i key.txt`, and returns the document inside.
 */
export async function openSealed(sealed: string): Promise<Record<string, unknown>> {
  const child = promisify(execFile)('age', ['--decrypt', '--identity', E2E_DEV_IDENTITY], {
    encoding: 'utf8',
  })
  child.child.stdin?.end(sealed)
  const { stdout } = await child
  return JSON.parse(stdout) as Record<string, unknown>
}

/** The start and end of every armored age file. */
export const AGE_ARMOR =
  /^-----BEGIN AGE ENCRYPTED FILE-----\n[\s\S]+\n-----END AGE ENCRYPTED FILE-----\n$/

/**
 * Values no other test uses, marked in every field, with what tends to break encodings: emoji
 * (4-byte UTF-8, surrogate pairs), right-to-left text, and a brief of exactly 5,000 characters.
 */
export function markedValues(label: string): { marker: string; values: Required<ContactValues> } {
  const marker = `MK${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const head = `${label} ${marker} — שלום, مرحبا 🦄🌍\n`
  const tail = ` ${marker}.`
  const message =
    `${head}${'Line of the brief.\n'.repeat(300)}`.slice(0, 5_000 - tail.length) + tail
  return {
    marker,
    values: {
      name: `Ada 🦄 ${marker}`,
      contact: `@ادا_${marker}`,
      project_type: 'crypto/web3-launch',
      budget: '50k-100k',
      message,
    },
  }
}
