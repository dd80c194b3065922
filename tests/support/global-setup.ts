import pg from 'pg'
import { E2E_DB_URL } from './ports'

/**
 * Runs once the servers are up (Playwright starts its web servers first). The database allows
 * anonymous visitors 200 inquiries an hour in all (the abuse limits); the whole browser suite sends
 * more than that within the hour, from one machine, and a send past the cap is queued in the
 * outbox (429), so later tests would look in vain for their row. The suite's backend raises that
 * one cap; the tests of the limits themselves set their own (supabase/local, pgTAP).
 */
export default async function globalSetup(): Promise<void> {
  const client = new pg.Client({ connectionString: E2E_DB_URL })
  await client.connect()
  try {
    await client.query('update private.contact_limits set global_limit = 100000')
  } finally {
    await client.end()
  }
}
