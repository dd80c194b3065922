import { BackendInUseError } from './folder-lock'
import { startLocalBackend } from './local-backend'
import { OutdatedSchemaError } from './migrations'
import { backendPaths } from './paths'
import { localPort, PortConfigError } from './ports'

/**
 * `npm run backend`: the local stand-in for the Supabase project, configured from the environment
 * (README.md, Configuration). Logs one line per request, never a body.
 */

class ConfigError extends Error {}

function env(name: string): string | undefined {
  return process.env[name]?.trim() || undefined
}

async function main(): Promise<void> {
  const databaseUrl = env('DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL')
  }
  const jwtSecret = env('LOCAL_JWT_SECRET')
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError(
      'LOCAL_JWT_SECRET must be at least 32 characters long, as Supabase requires',
    )
  }
  const dbPortOff = /^(off|none|false)$/i.test(env('LOCAL_DB_PORT') ?? '')
  const paths = backendPaths(env('LOCAL_BACKEND_DIR'))
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`)
  const backend = await startLocalBackend({
    apiPort: localPort('api'),
    dbPort: databaseUrl || dbPortOff ? null : localPort('db'),
    backendDir: paths.dir,
    databaseUrl,
    jwtSecret,
    staffAlertWebhookUrl: env('STAFF_ALERT_WEBHOOK_URL'),
    staffAlertWebhookSecret: env('STAFF_ALERT_WEBHOOK_SECRET'),
    // The alerts' links follow INBOX_PORT unless INBOX_URL names the inbox outright. They name
    // localhost, not 127.0.0.1: WebAuthn refuses IP addresses, and a passkey made at one origin
    // does not sign in at the other.
    inboxUrl: env('INBOX_URL') ?? `http://localhost:${localPort('inbox')}/`,
    // A restart right after a kill waits for the dead backend's lock to go stale.
    lockWaitMs: 35_000,
    onLockLost: (error) => {
      console.error(
        `The lock on ${paths.dir} was lost (${error.message}); stopping so that no two backends write it.`,
      )
      process.exit(1)
    },
    log,
  })
  console.log(
    [
      'Local Supabase stand-in is running.',
      `  API URL          ${backend.url}  (/rest/v1, /auth/v1, /storage/v1, GET /health)`,
      `  Storage files    ${backend.storageDir}`,
      backend.dbUrl && `  DB URL           ${backend.dbUrl}`,
      `  Database         ${databaseUrl ? 'PostgreSQL from DATABASE_URL' : `${paths.dataDir} (embedded PGlite)`}`,
      `  Migrations       ${backend.migrations.applied.length} applied now, ${backend.migrations.alreadyApplied} already applied`,
      `  Staff alerts     ${env('STAFF_ALERT_WEBHOOK_URL') ? 'forwarded to STAFF_ALERT_WEBHOOK_URL' : 'printed here (STAFF_ALERT_WEBHOOK_URL is not set)'}`,
      `  anon key         ${backend.anonKey}`,
      `  service_role key ${backend.serviceRoleKey}`,
      '',
      'Open, at localhost (passkeys refuse IP addresses):',
      `  the site         http://localhost:${localPort('site')}`,
      `  the staff inbox  http://localhost:${localPort('inbox')}`,
      databaseUrl
        ? null
        : `  development key  ${paths.identityFile} (paste it into the inbox once)`,
      'Next: `npm run staff -- add you@example.com` prints a password; sign in at the inbox.',
      'Press Ctrl+C to stop.',
    ]
      .filter((line) => typeof line === 'string')
      .join('\n'),
  )

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`${signal}: stopping…`)
    backend.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  const { code, port: busyPort } = error as NodeJS.ErrnoException & { port?: number }
  if (
    error instanceof ConfigError ||
    error instanceof PortConfigError ||
    error instanceof BackendInUseError ||
    error instanceof OutdatedSchemaError
  )
    console.error(error.message)
  else if (code === 'EADDRINUSE') {
    console.error(
      `Port ${busyPort ?? ''} is already in use (another local backend, or \`supabase start\`?). Stop it, or set LOCAL_API_PORT / LOCAL_DB_PORT.`,
    )
  } else console.error('The local backend could not start:', error)
  process.exit(1)
})
