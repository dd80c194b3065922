import { createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { BrowserContext, Page } from '@playwright/test'
import { submitToasts } from '../../src/features/contact/contact-copy'
import { attachmentsFieldCopy } from '../../src/features/contact/attachments-copy'
import { attachedFilesCopy } from '../../src/features/contact/attached-files-copy'
import { copy } from '../../src/inbox/content/copy'
import { ATTACHMENTS_BUCKET } from '../../src/shared/submission/attachments'
import { axeViolations } from '../support/axe'
import { submissionsWithId, uniqueName } from '../support/backend-db'
import {
  FILE_ENGINE_CHUNK,
  fillContactForm,
  contactForm,
  openContactPage,
  toast,
} from '../support/contact-form'
import {
  cacheStorageContents,
  goOffline,
  goOnline,
  indexedDbContents,
  waitForOfflineReady,
  webStorageContents,
} from '../support/offline'
import { E2E_BACKEND_DIR } from '../support/ports'
import { firstVisit, inquiryEntry } from '../support/staff-inbox'
import { filesUnder, objectBytes, stockAgeDecrypt, storedObjects } from '../support/stored-files'
import { markedFile, recordTraffic, type MarkedFile } from '../support/marked-files'
import { expect, test } from '../support/strict-page'

const attachmentsCopy = { ...attachmentsFieldCopy, ...attachedFilesCopy }

/**
 * Sealed attachments (issue 26) in Chromium against the real local backend and its Storage: files
 * attached on /contact are sealed in the page, uploaded as ciphertext (20 MB through TUS), queued
 * as ciphertext while offline, downloaded and opened in the inbox unchanged, opened by the stock
 * `age` with the development identity, and a marker in a file's name and content is readable
 * nowhere else.
 */

const MB = 1024 * 1024
const marker = () => `MK${Date.now().toString(36)}${randomBytes(4).toString('hex')}`
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

type Attached = MarkedFile

const storedObjectsOf = (submissionId: string) => storedObjects(ATTACHMENTS_BUCKET, submissionId)
const formObjectBytes = (name: string) => objectBytes(ATTACHMENTS_BUCKET, name)

const attach = (page: Page, files: Attached[]) =>
  page.getByLabel(attachmentsCopy.label).setInputFiles(files.map((file) => file.path))

/** Fills the form, attaches `files`, and checks that each is listed with its size. */
async function fillAndAttach(page: Page, name: string, files: Attached[]) {
  await fillContactForm(page, { name, contact: '@files_e2e', message: 'Deck and sheet attached.' })
  await attach(page, files)
  const list = page.getByRole('list', { name: attachmentsCopy.listLabel })
  for (const file of files) await expect(list).toContainText(file.name)
}

/** The submission id the page used: the first path segment of the objects it uploaded. */
function submissionIdOf(traffic: ReturnType<typeof recordTraffic>): string {
  for (const { url, headers } of traffic) {
    const standard = /\/storage\/v1\/object\/contact-attachments\/([0-9a-f-]{36})\//.exec(url)
    if (standard) return standard[1]!
    const metadata = headers['upload-metadata']
    if (metadata) {
      for (const pair of metadata.split(',')) {
        const [key, value] = pair.trim().split(' ')
        if (key === 'objectName') return Buffer.from(value!, 'base64').toString().slice(0, 36)
      }
    }
  }
  throw new Error('no upload seen')
}

/** Signs into the inbox in `context`, opens the inquiry, downloads each file; returns the bytes. */
async function downloadInInbox(context: BrowserContext, name: string, files: Attached[]) {
  const inbox = await context.newPage()
  await firstVisit(inbox)
  await inquiryEntry(inbox, name).click()
  const list = inbox.getByRole('heading', { name: copy.attachments.heading })
  await expect(list).toBeVisible()
  expect(await axeViolations(inbox, 'main')).toEqual([])
  const downloaded: Record<string, Buffer> = {}
  for (const file of files) {
    const item = inbox.getByTestId('attachment').filter({ hasText: file.name })
    await expect(item).toContainText(/MB|KB|bytes/)
    const download = inbox.waitForEvent('download')
    await item.getByRole('button', { name: copy.attachments.downloadLabel(file.name) }).click()
    const saved = await download
    expect(saved.suggestedFilename()).toBe(file.name)
    downloaded[file.name] = await readFile((await saved.path())!)
    await expect(item.getByRole('status')).toHaveText(copy.attachments.opened)
  }
  // Nothing decrypted is kept by the inbox: not in its IndexedDB, Cache Storage or web storage.
  const kept = [
    await indexedDbContents(inbox),
    await cacheStorageContents(inbox),
    await webStorageContents(inbox),
  ].join('\n')
  return { downloaded, kept, inbox }
}

test.describe.configure({ timeout: 240_000 })

test('two files (one 20 MB) sent online: stored as ciphertext, the inbox opens both unchanged, stock age opens an object, the marker is nowhere', async ({
  page,
  context,
}) => {
  const mark = marker()
  const files = [
    await markedFile(mark, 20 * MB, 'brief.pdf'),
    await markedFile(`${mark}s`, 300_000, 'brief.png'),
  ]
  const traffic = recordTraffic(page)
  const name = uniqueName('Files Online')
  await openContactPage(page)
  await expect(page.getByText(attachmentsCopy.limits)).toBeVisible()
  await fillAndAttach(page, name, files)
  expect(await axeViolations(page, 'main')).toEqual([])
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 120_000 })
  await expect(page.getByRole('list', { name: attachmentsCopy.listLabel })).toHaveCount(0)

  const id = submissionIdOf(traffic)
  expect(await submissionsWithId(id)).toHaveLength(1)
  const objects = await storedObjectsOf(id)
  expect(objects).toHaveLength(2)
  // The 20 MB file went through TUS in 6 MB chunks; the small one as one standard upload.
  expect(traffic.some((r) => r.method === 'POST' && r.url.endsWith('/upload/resumable'))).toBe(true)
  expect(traffic.some((r) => r.method === 'PATCH')).toBe(true)
  // Sealed by the WebAssembly engine, which the site's policy allows (the harness fails the test
  // on any violation).
  expect(traffic.some((r) => FILE_ENGINE_CHUNK.test(new URL(r.url).pathname))).toBe(true)

  // Stock age opens a stored object with the development identity: one of the two files.
  const opened = await stockAgeDecrypt(await formObjectBytes(objects[0]!))
  expect(files.map((file) => sha256(file.bytes))).toContain(sha256(opened))

  const { downloaded, kept, inbox } = await downloadInInbox(context, name, files)
  for (const file of files) expect(sha256(downloaded[file.name]!)).toBe(sha256(file.bytes))

  // The marker (in each name and content) is readable nowhere: requests, web storage, IndexedDB,
  // Cache Storage of both apps, the rows, the backend's files (objects, database, logs).
  const places: Record<string, string> = {
    requests: traffic.map((r) => `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`).join('\n'),
    'site web storage': await webStorageContents(page),
    'site IndexedDB': await indexedDbContents(page),
    'site Cache Storage': await cacheStorageContents(page),
    'inbox storage': kept,
    row: JSON.stringify(await submissionsWithId(id)),
  }
  for (const { path, text } of await filesUnder(E2E_BACKEND_DIR)) places[path] = text
  for (const [where, text] of Object.entries(places)) {
    expect(text.includes(mark), `${where} holds the marker in clear`).toBe(false)
  }
  await inbox.close()
})

test.describe('with the service worker (offline)', () => {
  test.use({ serviceWorkers: 'allow' })

  test('sent offline: the sealed files wait in IndexedDB as ciphertext and go once back online, exactly once', async ({
    page,
    context,
  }) => {
    const mark = marker()
    const files = [
      await markedFile(mark, 7 * MB, 'brief.key'),
      await markedFile(`${mark}t`, 5000, 'brief.txt'),
    ]
    const traffic = recordTraffic(page)
    const name = uniqueName('Files Offline')
    await openContactPage(page)
    await waitForOfflineReady(page)
    await fillAndAttach(page, name, files)
    await goOffline(context)
    await contactForm(page).submit.click()
    await expect(toast(page, submitToasts.queued.title)).toBeVisible({ timeout: 60_000 })

    // What waits is ciphertext: the record's Blobs hold no marker, and name no file.
    const waiting = await page.evaluate(async () => {
      const open = indexedDB.open('contact-outbox-sealed')
      const db = await new Promise<IDBDatabase>(
        (resolve) => (open.onsuccess = () => resolve(open.result)),
      )
      const records = await new Promise<Array<Record<string, unknown>>>((resolve) => {
        const request = db.transaction('records').objectStore('records').getAll()
        request.onsuccess = () => resolve(request.result as Array<Record<string, unknown>>)
      })
      db.close()
      const texts: string[] = []
      for (const record of records) {
        for (const file of (record.attachments ?? []) as Array<{
          object: string
          ciphertext: Blob
        }>) {
          const bytes = new Uint8Array(await file.ciphertext.arrayBuffer())
          texts.push(`${file.object}\n${new TextDecoder('latin1').decode(bytes.subarray(0, 64))}`)
          let text = ''
          for (let at = 0; at < bytes.length; at += 65536) {
            text += String.fromCharCode(...bytes.subarray(at, at + 65536))
          }
          texts.push(text)
        }
      }
      return { count: records.length, texts }
    })
    expect(waiting.count).toBe(1)
    expect(waiting.texts).toHaveLength(4)
    expect(waiting.texts[0]).toContain('age-encryption.org/v1')
    for (const text of waiting.texts) expect(text.includes(mark)).toBe(false)
    expect((await indexedDbContents(page)).includes(mark)).toBe(false)
    expect((await webStorageContents(page)).includes(mark)).toBe(false)

    await goOnline(context)
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 120_000 })
    const id = submissionIdOf(traffic)
    await expect.poll(() => submissionsWithId(id).then((rows) => rows.length)).toBe(1)
    expect(await storedObjectsOf(id)).toHaveLength(2)
    const requests = traffic
      .map((r) => `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`)
      .join('')
    expect(requests.includes(mark)).toBe(false)

    const { downloaded } = await downloadInInbox(context, name, files)
    for (const file of files) expect(sha256(downloaded[file.name]!)).toBe(sha256(file.bytes))
  })
})

test('without WebAssembly (an older browser, iOS Lockdown Mode) files are sealed in JavaScript, into the same age file', async ({
  page,
}) => {
  await page.addInitScript(() => {
    delete (globalThis as { WebAssembly?: unknown }).WebAssembly
  })
  const mark = marker()
  const file = await markedFile(mark, 200_000, 'brief.pdf')
  const traffic = recordTraffic(page)
  await openContactPage(page)
  await fillAndAttach(page, uniqueName('Files Without Wasm'), [file])
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 60_000 })

  // Not fetched: the page asked whether it may compile WebAssembly before loading the engine.
  expect(traffic.some((r) => FILE_ENGINE_CHUNK.test(new URL(r.url).pathname))).toBe(false)
  const [object] = await storedObjectsOf(submissionIdOf(traffic))
  expect(sha256(await stockAgeDecrypt(await formObjectBytes(object!)))).toBe(sha256(file.bytes))
})

test('an upload cut halfway resumes from the offset the server holds, without starting over', async ({
  page,
  allowConsoleError,
}) => {
  allowConsoleError(/ERR_FAILED|ERR_CONNECTION|Failed to load resource|tus/)
  const mark = marker()
  const files = [await markedFile(mark, 14 * MB, 'brief.mov')]
  const traffic = recordTraffic(page)
  let cut = 0
  // The first PATCH (the second 6 MB chunk) is cut off; every later request goes through.
  await page.route('**/storage/v1/upload/resumable/**', async (route) => {
    if (route.request().method() === 'PATCH' && cut === 0) {
      cut += 1
      await route.abort('connectionreset')
      return
    }
    await route.continue()
  })
  const name = uniqueName('Files Resumed')
  await openContactPage(page)
  await fillAndAttach(page, name, files)
  await contactForm(page).submit.click()
  await expect(toast(page, submitToasts.sent.title)).toBeVisible({ timeout: 120_000 })
  expect(cut).toBe(1)
  const creations = traffic.filter(
    (r) => r.method === 'POST' && r.url.endsWith('/upload/resumable'),
  )
  expect(creations).toHaveLength(1)
  // After the cut the client asked the server for its offset and went on from there.
  expect(traffic.some((r) => r.method === 'HEAD')).toBe(true)
  const offsets = traffic
    .filter((r) => r.method === 'PATCH')
    .map((r) => Number(r.headers['upload-offset']))
  expect(offsets[0]).toBe(6 * MB)
  expect(offsets.at(-1)).toBe(12 * MB)
  const id = submissionIdOf(traffic)
  const [object] = await storedObjectsOf(id)
  const opened = await stockAgeDecrypt(await formObjectBytes(object!))
  expect(sha256(opened)).toBe(sha256(files[0]!.bytes))
})
