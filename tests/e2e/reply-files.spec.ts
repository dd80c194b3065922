import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { conversationCopy, repliesCopy } from '../../src/features/replies/replies-copy'
import { copy } from '../../src/inbox/content/copy'
import {
  CONVERSATION_FILES_BUCKET,
  MAILBOX_TOKEN_HEADER,
} from '../../src/shared/conversation/reply-files'
import { removeQueuedAttachments } from '../../supabase/functions/_shared/attachment-removal'
import { DEMO_JWT_SECRET, signApiKeys } from '../../supabase/local/gateway'
import { objectFile } from '../../supabase/local/storage/files'
import { axeViolations } from '../support/axe'
import { sql, uniqueName } from '../support/backend-db'
import { watchFreshPage } from '../support/conversation'
import { cacheStorageContents, indexedDbContents, webStorageContents } from '../support/offline'
import { E2E_API_URL, E2E_BACKEND_DIR } from '../support/ports'
import { PHONE } from '../support/site'
import { ageDecrypt, agencyKey, messagesOf, storeInquiry } from '../support/staff-conversation'
import { firstVisit, inquiryEntry } from '../support/staff-inbox'
import { filesUnder, objectBytes, stockAgeDecrypt } from '../support/stored-files'
import { markedFile, recordTraffic } from '../support/marked-files'
import { expect, test } from '../support/strict-page'

/**
 * Files in the conversation (issue 26) in Chromium against the real local backend and its
 * Storage: staff reply from the inbox with two files (one over 6 MB, so through TUS), sealed on
 * the device to the visitor's receipt and the agency's key; the visitor, in a browser of their
 * own with nothing but the receipt, downloads both unchanged on /replies; the stock `age` opens a
 * stored object with either key; anon without the mailbox token reads and lists nothing; a marker
 * in the files' names and contents is readable nowhere; the purge removes the objects.
 */

test.describe.configure({ timeout: 240_000 })

const MB = 1024 * 1024
const marker = () => `RF${Date.now().toString(36)}${randomBytes(4).toString('hex')}`
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const asText = (traffic: ReturnType<typeof recordTraffic>) =>
  traffic.map((r) => `${r.method} ${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`).join('\n')

/** The conversation's objects under an inquiry, as storage.objects records them. */
const objectsOf = (inquiryId: string) =>
  sql<{ name: string; version: string; metadata: unknown }>(
    'select name, version, metadata from storage.objects where bucket_id = $1 and name like $2 order by name',
    [CONVERSATION_FILES_BUCKET, `${inquiryId}/%`],
  )

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

test('staff reply with two files; the visitor on /replies downloads both unchanged; stock age opens them with either key; anon without the token reads nothing; the marker is nowhere; the purge removes them', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000)
  const mark = marker()
  const files = [
    await markedFile(mark, 7 * MB, 'Signed deck.pdf'),
    await markedFile(`${mark}x`, 300_000, 'Token sheet.csv'),
  ]
  const name = uniqueName('Reply Files')
  const inquiry = await storeInquiry({
    name,
    contact: '@reply_files',
    message: 'Please send the signed deck.',
  })
  const receipt = inquiry.receipt!

  // ---------------------------------------------------------------- staff reply, with files
  const inboxTraffic = recordTraffic(page)
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  await page
    .getByRole('textbox', { name: copy.conversation.reply, exact: true })
    .fill(`Here it is, signed. ${mark}`)
  const picker = page.getByLabel(copy.conversation.files)
  await picker.setInputFiles(files.map((file) => file.path))
  const picked = page.getByRole('list', { name: copy.conversation.filesListLabel })
  for (const file of files) await expect(picked).toContainText(file.name)
  expect(await axeViolations(page, 'main')).toEqual([])
  await page.getByRole('button', { name: copy.conversation.send }).click()
  await expect(page.getByText(copy.conversation.sent)).toBeVisible({ timeout: 120_000 })
  await expect(picked).toHaveCount(0)

  const [message] = await messagesOf(inquiry.id)
  expect(message).toMatchObject({ direction: 'agency' })
  const stored = await objectsOf(inquiry.id)
  expect(stored.map((object) => object.name.split('/').slice(0, 2).join('/'))).toEqual([
    `${inquiry.id}/${message!.id}`,
    `${inquiry.id}/${message!.id}`,
  ])
  // The large file went through TUS in 6 MB chunks, the small one as one standard upload, both
  // with the staff session; the reply's row after both.
  const uploads = inboxTraffic.filter((r) => r.url.includes('/storage/v1/'))
  expect(uploads.some((r) => r.method === 'POST' && r.url.endsWith('/upload/resumable'))).toBe(true)
  expect(uploads.some((r) => r.method === 'PATCH')).toBe(true)
  expect(
    uploads.some(
      (r) => r.method === 'POST' && r.url.includes(`/object/${CONVERSATION_FILES_BUCKET}/`),
    ),
  ).toBe(true)
  const rowAt = inboxTraffic.findIndex(
    (r) => r.method === 'POST' && r.url.includes('/rest/v1/contact_messages'),
  )
  expect(rowAt).toBeGreaterThan(inboxTraffic.findLastIndex((r) => r.url.includes('/storage/v1/')))

  // The reply lists its files inside the seal, openable by the agency's key and the receipt's.
  const listed = new Map<string, { object: string; sha256: string; size: number }>()
  for (const identity of [(await agencyKey()).identity, receipt.identity]) {
    const folder = await mkdtemp(join(tmpdir(), 'identity-'))
    const identityFile = join(folder, 'key.txt')
    await writeFile(identityFile, `${identity}\n`, { mode: 0o600 })
    try {
      const opened = JSON.parse(await ageDecrypt(message!.sealed, identity)) as {
        v: number
        attachments: Array<{ object: string; name: string; sha256: string; size: number }>
      }
      expect(opened.v).toBe(1)
      expect(opened.attachments.map((file) => file.name)).toEqual(files.map((file) => file.name))
      for (const file of opened.attachments) listed.set(file.name, file)
      // Stock age opens each stored object with this key: exactly the file the reply lists.
      for (const file of files) {
        const entry = listed.get(file.name)!
        const plain = await stockAgeDecrypt(
          await objectBytes(CONVERSATION_FILES_BUCKET, entry.object),
          identityFile,
        )
        expect(sha256(plain)).toBe(sha256(file.bytes))
        expect(entry).toMatchObject({ sha256: sha256(file.bytes), size: file.bytes.length })
      }
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }

  // The inbox's thread shows the reply's files, and opens one as the inquiry's attachments.
  const reply = page.locator('.message.agency')
  const small = reply.getByTestId('attachment').filter({ hasText: files[1]!.name })
  const inboxDownload = page.waitForEvent('download')
  await small.getByRole('button', { name: copy.attachments.downloadLabel(files[1]!.name) }).click()
  const inboxSaved = await inboxDownload
  expect(inboxSaved.suggestedFilename()).toBe(files[1]!.name)
  expect(sha256(await readFile((await inboxSaved.path())!))).toBe(sha256(files[1]!.bytes))
  await expect(small.getByRole('status')).toHaveText(copy.attachments.reply.opened)

  // ---------------------------------------------------------------- the visitor, on /replies
  const visitorContext = await browser.newContext({ baseURL, viewport: PHONE })
  const visitor = await visitorContext.newPage()
  const problems = watchFreshPage(visitor)
  const visitorTraffic = recordTraffic(visitor)
  await visitor.goto('/replies')
  const field = visitor.getByRole('textbox', { name: repliesCopy.receiptLabel })
  await expect(field).toBeEnabled()
  await field.fill(inquiry.words!)
  await visitor.getByRole('button', { name: repliesCopy.open }).click()
  const list = visitor.getByRole('list', { name: conversationCopy.files.label })
  await expect(list).toBeVisible()
  for (const file of files) await expect(list).toContainText(file.name)
  await expect(list).toContainText('7.0 MB')
  expect(await axeViolations(visitor, 'main')).toEqual([])
  for (const file of files) {
    const download = visitor.waitForEvent('download')
    await visitor
      .getByRole('button', { name: conversationCopy.files.downloadLabel(file.name) })
      .click()
    const saved = await download
    expect(saved.suggestedFilename()).toBe(file.name)
    expect(sha256(await readFile((await saved.path())!))).toBe(sha256(file.bytes))
  }
  await expect(list.getByText(conversationCopy.files.opened)).toHaveCount(2)
  expect(problems).toEqual([])
  // The files came from Storage with the token in its header, never in an address.
  const fetched = visitorTraffic.filter(
    (r) => r.method === 'GET' && r.url.includes(`/storage/v1/object/${CONVERSATION_FILES_BUCKET}/`),
  )
  expect(fetched).toHaveLength(2)
  for (const request of fetched)
    expect(request.headers[MAILBOX_TOKEN_HEADER]).toBe(receipt.mailboxToken)
  expect(visitorTraffic.some((r) => r.url.includes(receipt.mailboxToken))).toBe(false)

  // ---------------------------------------------------------------- anon without the token
  const { anonKey } = await signApiKeys(DEMO_JWT_SECRET)
  const anon = (extra: Record<string, string> = {}) => ({
    apikey: anonKey,
    authorization: `Bearer ${anonKey}`,
    ...extra,
  })
  const object = listed.get(files[0]!.name)!.object
  for (const headers of [
    anon(),
    anon({ [MAILBOX_TOKEN_HEADER]: randomBytes(32).toString('hex') }),
    anon({ [MAILBOX_TOKEN_HEADER]: receipt.mailboxHash }),
  ]) {
    const read = await fetch(
      `${E2E_API_URL}/storage/v1/object/${CONVERSATION_FILES_BUCKET}/${object}`,
      {
        headers,
      },
    )
    expect(read.status).toBe(400)
    expect(await read.json()).toMatchObject({ statusCode: '404', message: 'Object not found' })
    for (const prefix of ['', inquiry.id, `${inquiry.id}/${message!.id}`]) {
      const listing = await fetch(
        `${E2E_API_URL}/storage/v1/object/list/${CONVERSATION_FILES_BUCKET}`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ prefix, limit: 100, offset: 0 }),
        },
      )
      expect(await listing.json()).toEqual([])
    }
  }
  // REST: the storage schema is not exposed, with the token or without.
  const rest = await fetch(`${E2E_API_URL}/rest/v1/objects?select=name`, {
    headers: anon({ 'accept-profile': 'storage', [MAILBOX_TOKEN_HEADER]: receipt.mailboxToken }),
  })
  expect(rest.status).toBe(406)
  expect(((await rest.json()) as { code: string }).code).toBe('PGRST106')

  // ---------------------------------------------------------------- the marker, nowhere
  const places: Record<string, string> = {
    'inbox requests': asText(inboxTraffic),
    'visitor requests': asText(visitorTraffic),
    'inbox web storage': await webStorageContents(page),
    'inbox IndexedDB': await indexedDbContents(page),
    'inbox Cache Storage': await cacheStorageContents(page),
    'visitor web storage': await webStorageContents(visitor),
    'visitor IndexedDB': await indexedDbContents(visitor),
    'message rows': JSON.stringify(await messagesOf(inquiry.id)),
    'object rows': JSON.stringify(await objectsOf(inquiry.id)),
  }
  for (const { path, text } of await filesUnder(E2E_BACKEND_DIR)) places[path] = text
  for (const [where, text] of Object.entries(places)) {
    expect(text.includes(mark), `${where} holds the marker in clear`).toBe(false)
  }
  await visitorContext.close()

  // ---------------------------------------------------------------- the purge
  const onDisk = stored.map((row) =>
    objectFile(
      resolve(E2E_BACKEND_DIR, 'storage'),
      CONVERSATION_FILES_BUCKET,
      row.name,
      row.version,
    ),
  )
  for (const path of onDisk) expect(await exists(path)).toBe(true)
  await sql(
    `update public.contact_submissions set created_at = now() - interval '100 days' where id = $1`,
    [inquiry.id],
  )
  await sql('select private.purge_contact_submissions()')
  // The purge deleted the inquiry and queued its files for removal through the Storage API.
  const queued = await sql<{ name: string }>(
    'select name from public.pending_attachment_removals() where bucket_id = $1 and name like $2',
    [CONVERSATION_FILES_BUCKET, `${inquiry.id}/%`],
  )
  expect(queued.map((row) => row.name).sort()).toEqual(stored.map((row) => row.name).sort())
  // The queue's consumer, as the attachment-purge Edge Function runs it on Supabase (the backend
  // runs the same on the queue's notification, which a statement sent through the wire port does
  // not reach on PGlite, and hourly): the service role, through Storage's routes.
  const { serviceRoleKey } = await signApiKeys(DEMO_JWT_SECRET)
  await removeQueuedAttachments({ url: E2E_API_URL, serviceRoleKey })
  expect(await objectsOf(inquiry.id)).toEqual([])
  for (const path of onDisk) expect(await exists(path)).toBe(false)
})

test('a reply whose upload is cut keeps its text and files, shows the visitor nothing, and a retry stores each file once', async ({
  page,
  context,
  allowConsoleError,
}) => {
  allowConsoleError(
    /ERR_FAILED|ERR_CONNECTION|ERR_INTERNET_DISCONNECTED|Failed to load resource|not stored/,
  )
  const mark = marker()
  const files = [
    await markedFile(mark, 40_000, 'First.txt'),
    await markedFile(`${mark}y`, 50_000, 'Second.txt'),
  ]
  const name = uniqueName('Reply Files Cut')
  const inquiry = await storeInquiry({ name, contact: '@reply_cut', message: 'Files, please.' })
  const traffic = recordTraffic(page)
  await firstVisit(page)
  await inquiryEntry(page, name).click()
  const field = page.getByRole('textbox', { name: copy.conversation.reply, exact: true })
  await field.fill('Two files.')
  await page.getByLabel(copy.conversation.files).setInputFiles(files.map((file) => file.path))
  const send = page.getByRole('button', { name: copy.conversation.send })
  const picked = page.getByRole('list', { name: copy.conversation.filesListLabel })

  // Offline: said, nothing sent, everything kept.
  await context.setOffline(true)
  await send.click()
  await expect(page.getByRole('alert')).toHaveText(copy.conversation.offline)
  await context.setOffline(false)
  expect(traffic.filter((r) => r.url.includes('/storage/v1/'))).toEqual([])

  // The second file's upload is cut off: the first is stored, the reply is not.
  const uploadPath = `**/storage/v1/object/${CONVERSATION_FILES_BUCKET}/**`
  let uploads = 0
  await page.route(uploadPath, async (route) => {
    uploads += 1
    if (uploads === 2) await route.abort('connectionreset')
    else await route.continue()
  })
  await send.click()
  await expect(page.getByRole('alert')).toHaveText(copy.conversation.failed)
  await expect(field).toHaveValue('Two files.')
  for (const file of files) await expect(picked).toContainText(file.name)
  expect(await messagesOf(inquiry.id)).toEqual([])
  expect(await objectsOf(inquiry.id)).toHaveLength(1)
  // The visitor's token shows nothing of a reply that was not stored.
  const { anonKey } = await signApiKeys(DEMO_JWT_SECRET)
  const listing = await fetch(
    `${E2E_API_URL}/storage/v1/object/list/${CONVERSATION_FILES_BUCKET}`,
    {
      method: 'POST',
      headers: {
        apikey: anonKey,
        authorization: `Bearer ${anonKey}`,
        'content-type': 'application/json',
        [MAILBOX_TOKEN_HEADER]: inquiry.receipt!.mailboxToken,
      },
      body: JSON.stringify({ prefix: inquiry.id, limit: 100, offset: 0 }),
    },
  )
  expect(await listing.json()).toEqual([])

  // Sent again: only the file not stored is uploaded, then the reply, which lists both.
  await send.click()
  await expect(page.getByText(copy.conversation.sent)).toBeVisible({ timeout: 60_000 })
  expect(uploads).toBe(3)
  const [message] = await messagesOf(inquiry.id)
  const opened = JSON.parse(await ageDecrypt(message!.sealed, (await agencyKey()).identity)) as {
    attachments: Array<{ object: string; name: string }>
  }
  const stored = await objectsOf(inquiry.id)
  expect(opened.attachments.map((file) => file.object).sort()).toEqual(
    stored.map((object) => object.name).sort(),
  )
  expect(opened.attachments.map((file) => file.name)).toEqual(files.map((file) => file.name))
})
