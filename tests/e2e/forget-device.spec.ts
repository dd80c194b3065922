import type { Page } from '@playwright/test'
import { forgetDevice } from '../../src/content/forget-device'
import { forgetDeviceSteps } from '../../src/content/forget-device-steps'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { axeViolations } from '../support/axe'
import { fillAndSend, openContactPage, toast } from '../support/contact-form'
import { goOffline, waitForOfflineReady } from '../support/offline'
import { waitForHydration } from '../support/site'
import { expect, test } from '../support/strict-page'

/** "Forget this site on this device": it says what will be lost, then leaves nothing behind. */

test.use({ serviceWorkers: 'allow' })

/** What an origin that kept nothing holds. */
const NO_TRACES = { databases: [], localStorage: 0, sessionStorage: 0, caches: [], workers: 0 }

/** What this origin keeps: IndexedDB, web storage, Cache Storage, service workers. */
async function originTraces(page: Page) {
  return page.evaluate(async () => ({
    databases: (await indexedDB.databases()).map(({ name }) => name),
    localStorage: localStorage.length,
    sessionStorage: sessionStorage.length,
    caches: await caches.keys(),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
  }))
}

test('after saying that a queued message and the kept receipt will be lost, it removes every trace of the site', async ({
  page,
  context,
}) => {
  await openContactPage(page)
  await waitForOfflineReady(page)
  await goOffline(context)
  await fillAndSend(page, {
    name: 'Forgetful sender',
    contact: 'forget@example.com',
    project_type: 'community-building',
    budget: '25k-50k',
    message: 'A brief that will never be sent.',
  })
  await expect(toast(page, submitToasts.queued.title).last()).toBeVisible()
  await page.evaluate(() =>
    localStorage.setItem('secure-contact:receipt', 'twelve words kept on this device'),
  )

  await page.goto('/privacy')
  await waitForHydration(page)
  const before = await originTraces(page)
  expect(before.databases.length).toBeGreaterThan(0)
  expect(before.caches.length).toBeGreaterThan(0)
  expect(before.workers).toBe(1)

  const section = page.getByRole('region', { name: forgetDevice.heading })
  await section.getByRole('button', { name: forgetDevice.start }).click()
  const confirmation = section.getByRole('alertdialog')
  await expect(confirmation).toContainText(forgetDeviceSteps.confirm(1, true))
  expect(await axeViolations(page)).toEqual([])

  // "Keep everything" keeps it.
  await confirmation.getByRole('button', { name: forgetDeviceSteps.cancel }).click()
  expect(await originTraces(page)).toEqual(before)

  await section.getByRole('button', { name: forgetDevice.start }).click()
  await section.getByRole('button', { name: forgetDeviceSteps.confirmButton }).click()
  await expect(section.getByRole('status')).toHaveText(forgetDeviceSteps.done)
  expect(await axeViolations(page)).toEqual([])
  expect(await originTraces(page)).toEqual(NO_TRACES)
})

test('/replies offers the same, where a visitor who kept a receipt comes back', async ({
  page,
}) => {
  await page.goto('/replies')
  await waitForHydration(page)
  await waitForOfflineReady(page)
  await page.evaluate(() =>
    localStorage.setItem('secure-contact:receipt', 'twelve words kept on this device'),
  )
  const section = page.getByRole('region', { name: forgetDevice.heading })
  await section.getByRole('button', { name: forgetDevice.start }).click()
  await expect(section.getByRole('alertdialog')).toContainText(forgetDeviceSteps.confirm(0, true))
  await section.getByRole('button', { name: forgetDeviceSteps.confirmButton }).click()
  await expect(section.getByRole('status')).toHaveText(forgetDeviceSteps.done)
  expect(await axeViolations(page)).toEqual([])
  expect(await originTraces(page)).toEqual(NO_TRACES)
})
