import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { copy } from '../../src/inbox/content/copy'
import { totpCode } from '../../supabase/local/auth/totp'
import { axeViolations } from '../support/axe'
import { buildIdOf, BUILD_MANIFEST_PATH } from '../../src/shared/build-id'
import { E2E_INBOX_BUILD_DIR, E2E_INBOX_URL } from '../support/ports'
import {
  addStaff,
  devIdentity,
  enterCode,
  importKey,
  openInbox,
  setupKey,
  STAFF_PASSWORD,
} from '../support/staff-inbox'
import { expect, test } from '../support/strict-page'

/** "Remove this device": after a sentence saying what goes, the inbox's origin keeps nothing. */

test.use({ serviceWorkers: 'allow' })

async function originTraces(page: Page) {
  return page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map(({ name }) => name).sort(),
    localStorage: localStorage.length,
    sessionStorage: sessionStorage.length,
    caches: (await caches.keys()).length,
    workers: (await navigator.serviceWorker.getRegistrations()).length,
  }))
}

test('a trusted device with the key removes the key, the session, the caches and the worker, and signs out', async ({
  page,
}) => {
  const email = await addStaff()
  await openInbox(page, `${E2E_INBOX_URL}/`)
  await page.getByLabel(copy.signIn.email).fill(email)
  await page.getByLabel(copy.signIn.password).fill(STAFF_PASSWORD)
  await page.getByLabel(copy.signIn.keepSignedIn).check()
  await page.getByRole('button', { name: copy.signIn.submit }).click()
  await enterCode(page, totpCode(await setupKey(page)))
  await importKey(page, { secret: await devIdentity() })
  await expect(page.getByRole('heading', { name: copy.list.heading })).toBeVisible()
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await expect.poll(async () => (await originTraces(page)).caches).toBeGreaterThan(0)
  const before = await originTraces(page)
  expect(before.databases).toContain('inbox-key')
  expect(before.localStorage).toBeGreaterThan(0)
  expect(before.workers).toBe(1)

  const account = page.getByRole('region', { name: copy.account.heading })
  // The panel names the build the host serves: its manifest's SHA-256, shortened.
  await expect(account.getByTestId('build-id')).toHaveText(
    await buildIdOf(readFileSync(`${E2E_INBOX_BUILD_DIR}/${BUILD_MANIFEST_PATH}`)),
  )
  await account.locator('summary', { hasText: copy.account.removeHeading }).click()
  await account.getByRole('button', { name: copy.account.remove }).click()
  const confirmation = account.getByRole('alertdialog')
  await expect(confirmation).toContainText(copy.account.removeConfirm)
  expect(await axeViolations(page)).toEqual([])
  await confirmation.getByRole('button', { name: copy.account.removeConfirmButton }).click()

  await expect(page.getByText(copy.account.removed)).toBeVisible()
  await expect(page.getByLabel(copy.signIn.email)).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  expect(await originTraces(page)).toEqual({
    databases: [],
    localStorage: 0,
    sessionStorage: 0,
    caches: 0,
    workers: 0,
  })
})
