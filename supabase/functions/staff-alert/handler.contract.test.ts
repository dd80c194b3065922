// @vitest-environment node
import { expect, it } from 'vitest'
import { useMigratedDatabase } from '../../local/test-support'
import { handleStaffAlert, SECRET_HEADER } from './handler'

/**
 * The two ends of the alert agree: every payload the database builds
 * (private.staff_alert_payload, on PostgreSQL 15 with every migration) is one the handler accepts.
 */

const database = useMigratedDatabase()

it.each([
  ['contact.new', '1a2b3c4d-0000-4000-8000-000000000001', 'New secure inquiry 1a2b3c4d, answer by'],
  ['contact.overdue', '1a2b3c4d-0000-4000-8000-000000000001', 'Secure inquiry 1a2b3c4d is still'],
  ['contact.limit', null, 'The secure contact form reached its submission limit'],
  [
    'contact.message',
    '1a2b3c4d-0000-4000-8000-000000000001',
    'New message on secure inquiry 1a2b3c4d',
  ],
])('the database payload for %s is accepted and posted', async (event, id, text) => {
  const [row] = await database.query<{ payload: string }>(
    'select private.staff_alert_payload($1, $2::uuid) as payload',
    [event, id],
  )
  const posted: string[] = []
  const response = await handleStaffAlert(
    new Request('http://127.0.0.1/staff-alert', {
      method: 'POST',
      headers: { [SECRET_HEADER]: 'secret' },
      body: row?.payload,
    }),
    { STAFF_ALERT_SECRET: 'secret', TELEGRAM_BOT_TOKEN: '1:x', TELEGRAM_CHAT_ID: '1' },
    {
      fetch: async (_url, init) => {
        posted.push(String(init?.body))
        return new Response('{"ok":true}')
      },
      log: () => {},
    },
  )
  expect(response.status).toBe(200)
  expect(JSON.parse(posted[0] ?? '{}').text).toContain(text)
})
