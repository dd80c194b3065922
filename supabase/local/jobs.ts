import type { Database } from './database'

/**
 * What Supabase runs with pg_cron, run by the backend (PGlite has no pg_cron): the purge hourly
 * and the overdue alerts every 15 minutes, each at start too, each only once a migration brought
 * its function.
 */

const HOUR = 60 * 60 * 1000

/** Runs `procedure()` now and every `everyMs`, if it exists. */
function schedule(db: Database, procedure: string, everyMs: number, log: (line: string) => void) {
  const run = async () => {
    try {
      const [found] = await db.query<{ ok: boolean }>(
        'select to_regprocedure($1) is not null as ok',
        [`${procedure}(timestamptz)`],
      )
      if (!found?.ok) return
      const [result] = await db.query<{ n: number }>(`select ${procedure}() as n`)
      if (result?.n) log(`${procedure}(): ${result.n}`)
    } catch (error) {
      log(`${procedure}() failed: ${(error as Error).message}`)
    }
  }
  const timer = setInterval(run, everyMs)
  timer.unref()
  return { first: run(), stop: () => clearInterval(timer) }
}

/** Starts the jobs; resolves once their first run is done, with the function that stops them. */
export async function startDatabaseJobs(db: Database, log: (line: string) => void) {
  const jobs = [
    schedule(db, 'private.purge_contact_submissions', HOUR, log),
    schedule(db, 'private.alert_overdue_submissions', HOUR / 4, log),
  ]
  await Promise.all(jobs.map((job) => job.first))
  return () => jobs.forEach((job) => job.stop())
}
