import { rm } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { type Output, pathFromUser, UsageError } from './cli-io'
import { defaultIdentityFile, resolveConnection } from './connection'
import { isReadableByOthers, readIdentities } from './identity-file'
import { formatList, formatStatusChange, formatSubmission } from './inbox-format'
import { countSubmissions, findSubmission, listSubmissions, setStatus } from './inbox-store'
import { openSealed } from './open-sealed'
import { downloadAttachment } from './attachment-download'
import { SETTABLE_STATUSES, type SettableStatus } from '../../src/shared/staff-workflow'

export const USAGE = `Usage:
  npm run inbox -- list [--limit N]                  overdue first, then new, then the rest (never shows content)
  npm run inbox -- show <ref> [--identity <file>]    one submission in full, decrypted ("-" reads the identity from stdin)
  npm run inbox -- status <ref> <${SETTABLE_STATUSES.join('|')}>
  npm run inbox -- attachment <object> --out <file> [--sha256 <hex>] [--identity <file>]
                                                     one sealed attachment, fetched from Storage and opened

Connects with DATABASE_URL (a hosted project: a staff login's connection string), else this
checkout's local backend. --identity defaults to the local development identity. attachment reads
Storage with the service role: this checkout's local backend, or SUPABASE_URL and
SUPABASE_SERVICE_ROLE_KEY.`

export type InboxContext = { env: NodeJS.ProcessEnv; output: Output; stdin?: NodeJS.ReadableStream }

type Parsed = {
  command: string
  args: string[]
  limit: number
  identity: string | undefined
  out: string | undefined
  sha256: string | undefined
}

function parse(argv: string[]): Parsed | null {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: 'string', short: 'n' },
      identity: { type: 'string', short: 'i' },
      out: { type: 'string', short: 'o' },
      sha256: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) return null
  const [command = 'list', ...args] = positionals
  const limit = values.limit === undefined ? 100 : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new UsageError('--limit must be a whole number from 1 to 10000.')
  }
  return {
    command,
    args,
    limit,
    identity: values.identity,
    out: values.out,
    sha256: values.sha256,
  }
}

const ARGUMENTS: Record<string, string[]> = {
  list: [],
  show: ['<ref>'],
  status: ['<ref>', '<status>'],
  attachment: ['<object>'],
}

function checkArguments(parsed: Parsed): void {
  const expected = ARGUMENTS[parsed.command] ?? []
  if (parsed.args.length !== expected.length) {
    const wanted = expected.length === 0 ? 'no arguments' : expected.join(' ')
    throw new UsageError(`${parsed.command} takes ${wanted}.\n${USAGE}`)
  }
}

/** `npm run inbox`: the staff's view of public.contact_submissions. */
export async function runInbox(argv: string[], context: InboxContext): Promise<void> {
  const parsed = parse(argv)
  if (parsed === null) {
    context.output.out(USAGE)
    return
  }
  if (!Object.hasOwn(ARGUMENTS, parsed.command)) {
    throw new UsageError(`Unknown command "${parsed.command}".\n${USAGE}`)
  }
  checkArguments(parsed)
  const status = parsed.args[1]
  if (parsed.command === 'status' && !SETTABLE_STATUSES.includes(status as SettableStatus)) {
    throw new UsageError(`Status must be one of ${SETTABLE_STATUSES.join(', ')}.`)
  }

  if (parsed.command === 'attachment') return openAttachment(parsed, context)

  const connection = await resolveConnection(context.env)
  if (connection.warning !== null) context.output.err(`Warning: ${connection.warning}`)
  const client = new pg.Client({
    connectionString: connection.url,
    application_name: 'staff-inbox',
  })
  try {
    await client.connect()
  } catch (error) {
    throw new UsageError(
      `Cannot connect to ${connection.label}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  try {
    if (parsed.command === 'list') {
      const [rows, counts] = await Promise.all([
        listSubmissions(client, parsed.limit),
        countSubmissions(client),
      ])
      context.output.out(formatList(rows, counts))
    } else if (parsed.command === 'status') {
      const change = await setStatus(client, parsed.args[0] ?? '', status as SettableStatus)
      context.output.out(formatStatusChange(change))
    } else {
      const row = await findSubmission(client, parsed.args[0] ?? '')
      const identityFile = identityFileFor(
        parsed,
        context.env,
        connection.local,
        'This row is sealed: pass the staff identity with --identity <file> (the default, the local development identity, cannot open rows of a hosted project).',
      )
      if (await isReadableByOthers(identityFile)) {
        context.output.err(`Warning: ${identityFile} is readable by other users; chmod 600 it.`)
      }
      const identities = await readIdentities(identityFile, context.stdin)
      const opened = await openSealed(
        row.sealed,
        identities,
        row,
        identityFile === '-' ? 'standard input' : identityFile,
      )
      context.output.out(formatSubmission(row, opened))
    }
  } catch (error) {
    throw explainDatabaseError(error)
  } finally {
    await client.end()
  }
}

/** Database refusals the person can act on, said in their terms; anything else passes through. */
function explainDatabaseError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code
  if (code === '42501') {
    return new UsageError(
      `The database refused: ${(error as Error).message}. Connect as a login that is a member of contact_staff (see the README's staff guide).`,
    )
  }
  if (code === '42703' || code === '42P01') {
    return new UsageError(
      `The database lacks the inbox's columns (${(error as Error).message}): apply the migrations in supabase/migrations.`,
    )
  }
  if (typeof code === 'string' && /^(P0001|23514|22023)$/.test(code)) {
    return new UsageError(`The database refused: ${(error as Error).message}`)
  }
  return error
}

/**
 * The identity file named by --identity, else the local development identity; against a hosted
 * project (not `local`) there is no default, and `whyNeeded` says so.
 */
function identityFileFor(
  parsed: Parsed,
  env: InboxContext['env'],
  local: boolean,
  whyNeeded: string,
): string {
  if (parsed.identity !== undefined) return pathFromUser(parsed.identity, env)
  if (!local) throw new UsageError(whyNeeded)
  return defaultIdentityFile(env)
}

/** `attachment <object>`: fetched from Storage, opened with the identity, checked, written. */
async function openAttachment(parsed: Parsed, context: InboxContext): Promise<void> {
  if (parsed.out === undefined) throw new UsageError(`attachment needs --out <file>.\n${USAGE}`)
  const identityFile = identityFileFor(
    parsed,
    context.env,
    context.env.SUPABASE_URL === undefined,
    "Pass the staff identity with --identity <file> (the local development identity cannot open a hosted project's attachments).",
  )
  const identities = await readIdentities(identityFile, context.stdin)
  const out = pathFromUser(parsed.out, context.env)
  const result = await downloadAttachment({
    object: parsed.args[0] ?? '',
    out,
    secrets: identities.secrets,
    sha256: parsed.sha256,
    env: context.env,
  })
  if (result.matches === false) {
    await rm(out, { force: true })
    throw new UsageError(
      `The opened file's SHA-256 is ${result.sha256}, not the ${parsed.sha256} its inquiry lists: it was not kept.`,
    )
  }
  context.output.out(
    `Wrote ${out} (${result.bytes} bytes, SHA-256 ${result.sha256}${result.matches ? ', as listed' : ''}).`,
  )
}
