import { relative } from 'node:path'
import { backendOptionsFromEnv, ConfigError } from './env-config'
import { startLocalBackend } from './local-backend'
import { REPO_ROOT } from './paths'

/**
 * `npm run backend`: the local stand-in for the Supabase project, configured from the
 * environment (see env-config.ts and README.md). Logs one line per request, never a body.
 */

async function main(): Promise<void> {
  const options = backendOptionsFromEnv(process.env)
  const backend = await startLocalBackend({
    ...options,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  })

  const dataDir = options.dataDir ?? ''
  const shownDir = dataDir.startsWith(REPO_ROOT) ? relative(REPO_ROOT, dataDir) : dataDir
  const where = options.databaseUrl
    ? 'PostgreSQL from DATABASE_URL'
    : `${shownDir} (embedded PGlite)`
  console.log(
    [
      'Local Supabase stand-in is running.',
      `  API URL          ${backend.url}  (POST /rest/v1/contact_submissions, GET /health)`,
      backend.dbUrl ? `  DB URL           ${backend.dbUrl}` : null,
      `  Database         ${where}`,
      `  Migrations       ${backend.migrations.applied.length} applied now, ${backend.migrations.alreadyApplied} already applied`,
      `  anon key         ${backend.anonKey}`,
      `  service_role key ${backend.serviceRoleKey}`,
      'Press Ctrl+C to stop.',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  )

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      console.error(`${signal} again: exiting without a clean shutdown.`)
      process.exit(1)
    }
    stopping = true
    console.log(`${signal}: stopping…`)
    backend.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`)
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    const address = error as NodeJS.ErrnoException & { port?: number }
    console.error(
      `Port ${address.port ?? ''} is already in use (is another local backend or \`supabase start\` running?). ` +
        'Stop it, or set LOCAL_API_PORT / LOCAL_DB_PORT.',
    )
  } else {
    console.error('The local backend could not start:', error)
  }
  process.exit(1)
})
