import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { DEMO_JWT_SECRET, signApiKeys } from '../local/gateway'
import { localApiUrl } from '../local/local-connection'
import { type Output, UsageError } from './cli-io'

export const STAFF_USAGE = `Usage:
  npm run staff -- add <email> [--password <password>]   an Auth user on the staff list (a password is generated and shown once if none is given)
  npm run staff -- remove <email>                         off the staff list, and the Auth user deleted (their sessions end)
  npm run staff -- list                                   who is on the staff list, and who has set up a second factor
  npm run staff -- reset-mfa <email>                      a lost authenticator: its second factor removed and every session ended; the next sign-in sets one up again

Talks to SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY (a hosted project: both from the dashboard's
API settings), else to this checkout's running local backend (npm start, on whatever port it took)
with its service_role key.`

export type StaffContext = {
  env: NodeJS.ProcessEnv
  output: Output
  /** supabase-js wants a WebSocket constructor in Node; this command never opens one. */
  realtimeTransport?: unknown
}

/** As long as supabase/config.toml's minimum_password_length asks, with room to spare. */
const GENERATED_PASSWORD_BYTES = 18

/** A strong password: 24 URL-safe characters (144 random bits). */
export const generatePassword = () => randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url')

async function connect(
  context: StaffContext,
  action: string,
): Promise<{ client: SupabaseClient; url: string }> {
  const { SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: key, LOCAL_JWT_SECRET } = context.env
  if ((url === undefined) !== (key === undefined)) {
    throw new UsageError(
      'Set both SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, or neither (the local backend).',
    )
  }
  const target = url ?? (await runningLocalBackend(context.env))
  await assertReachable(target, action, url === undefined)
  const serviceKey = key ?? (await signApiKeys(LOCAL_JWT_SECRET ?? DEMO_JWT_SECRET)).serviceRoleKey
  const client = createClient(target, serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: context.realtimeTransport ? { transport: context.realtimeTransport as never } : {},
  })
  return { client, url: target }
}

/** The API of this checkout's backend, found as `npm run inbox` finds its database. */
async function runningLocalBackend(env: NodeJS.ProcessEnv): Promise<string> {
  try {
    return await localApiUrl(env.LOCAL_BACKEND_DIR?.trim() || undefined)
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message : String(error)}\n` +
        'Start it with `npm start` (or `npm run backend`), or set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY for a hosted project.',
    )
  }
}

/**
 * One request of our own before supabase-js's: its Auth client prints a raw network error to the
 * console before it returns one, and staff should read a sentence only.
 */
async function assertReachable(url: string, action: string, local: boolean): Promise<void> {
  try {
    await fetch(`${url}/auth/v1/health`, { signal: AbortSignal.timeout(10_000) })
  } catch {
    throw new UsageError(
      `Cannot reach Supabase at ${url} to ${action}. ${local ? 'Is the local backend still running (npm start)?' : 'Check SUPABASE_URL and the network.'}`,
    )
  }
}

/** What went wrong, in a sentence staff can act on; the server's own words only as the reason. */
function failure(
  action: string,
  url: string,
  error: { message: string; status?: number; code?: string },
) {
  if (error.status === 0 || /fetch failed|ECONNREFUSED/i.test(error.message)) {
    return new UsageError(
      `Cannot reach Supabase at ${url} to ${action}. Is the local backend running (npm start)?`,
    )
  }
  if (error.status === 401 || error.status === 403) {
    return new UsageError(
      `Supabase at ${url} refused the service_role key (${error.message}): check SUPABASE_SERVICE_ROLE_KEY.`,
    )
  }
  return new UsageError(`Could not ${action}: ${error.message}`)
}

async function findUserId(
  client: SupabaseClient,
  url: string,
  email: string,
): Promise<string | null> {
  for (let page = 1; ; page += 1) {
    const { data, error } = await client.auth.admin.listUsers({ page, perPage: 1000 })
    if (error) throw failure('look the user up', url, error)
    const found = data.users.find((user) => user.email?.toLowerCase() === email.toLowerCase())
    if (found) return found.id
    if (data.users.length < 1000) return null
  }
}

async function add(context: StaffContext, email: string, given: string | undefined) {
  const { client, url } = await connect(context, `add ${email} to the staff`)
  const password = given ?? generatePassword()
  const created = await client.auth.admin.createUser({ email, password, email_confirm: true })
  const existed = created.error?.code === 'email_exists'
  if (created.error && !existed) throw failure(`create the user ${email}`, url, created.error)
  const listed = await client.rpc('add_staff_member', { email })
  if (listed.error) throw failure(`put ${email} on the staff list`, url, listed.error)
  const { out } = context.output
  if (existed) {
    out(
      `${email} already had an account: it is on the staff list now, with its own password (unchanged).`,
    )
  } else {
    out(`Added ${email} to the staff.`)
    if (given === undefined) out(`Password (shown once, pass it on privately): ${password}`)
  }
  out(
    'Next: sign in to the staff inbox and set up the second factor; until then no submission can be read.',
  )
}

async function remove(context: StaffContext, email: string) {
  const { client, url } = await connect(context, `remove ${email} from the staff`)
  const removed = await client.rpc('remove_staff_member', { email })
  if (removed.error) throw failure(`take ${email} off the staff list`, url, removed.error)
  const userId = await findUserId(client, url, email)
  if (userId) {
    const deleted = await client.auth.admin.deleteUser(userId)
    if (deleted.error) throw failure(`delete the user ${email}`, url, deleted.error)
  }
  if (removed.data !== true && !userId)
    throw new UsageError(`${email} is not on the staff list, and has no account.`)
  context.output.out(
    `Removed ${email}: off the staff list (their next request reads nothing)${userId ? ', account deleted' : ''}.`,
  )
}

/**
 * A lost authenticator: the account's TOTP factors are removed through Auth's admin API (deleting
 * a verified factor also ends every session of the account, as Auth documents), so the next
 * sign-in with the password asks to set up an authenticator again, and nothing can be read until
 * it is. The dashboard's equivalent is in supabase/staff/README.md.
 */
async function resetMfa(context: StaffContext, email: string) {
  const { client, url } = await connect(context, `reset the second factor of ${email}`)
  const userId = await findUserId(client, url, email)
  if (!userId) throw new UsageError(`${email} has no account.`)
  const listed = await client.auth.admin.mfa.listFactors({ userId })
  if (listed.error) throw failure(`list the second factors of ${email}`, url, listed.error)
  const totp = listed.data.factors.filter((factor) => factor.factor_type === 'totp')
  for (const factor of totp) {
    const deleted = await client.auth.admin.mfa.deleteFactor({ userId, id: factor.id })
    if (deleted.error) throw failure(`remove a second factor of ${email}`, url, deleted.error)
  }
  const { out } = context.output
  if (totp.length === 0) return out(`${email} has no authenticator set up: nothing to reset.`)
  out(
    `Reset the second factor of ${email}: the authenticator is removed and every session of the account has ended.`,
  )
  out(
    'Next: they sign in to the staff inbox with their password and set up the authenticator again; until then no submission can be read.',
  )
}

type StaffMember = { email: string | null; added_at: string; second_factor: boolean }

async function list(context: StaffContext) {
  const { client, url } = await connect(context, 'list the staff')
  const { data, error } = await client.rpc('list_staff_members')
  if (error) throw failure('list the staff', url, error)
  const members = (data ?? []) as StaffMember[]
  const { out } = context.output
  if (members.length === 0)
    return out('Nobody is on the staff list. Add someone: npm run staff -- add <email>')
  const width = Math.max(...members.map((member) => (member.email ?? '').length), 5)
  out(`${'email'.padEnd(width)}  second factor  added`)
  for (const member of members) {
    const factor = member.second_factor ? 'yes' : 'not yet'
    out(
      `${(member.email ?? '(no email)').padEnd(width)}  ${factor.padEnd(13)}  ${member.added_at.slice(0, 10)}`,
    )
  }
}

export async function runStaff(argv: string[], context: StaffContext): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, ...args] = positionals
  if (values.help || command === undefined) return context.output.out(STAFF_USAGE)
  const email = args[0]?.trim()
  const expected = command === 'list' ? 0 : 1
  if (!['add', 'remove', 'list', 'reset-mfa'].includes(command))
    throw new UsageError(`Unknown command "${command}".\n${STAFF_USAGE}`)
  if (args.length !== expected || (expected === 1 && !email?.includes('@')))
    throw new UsageError(
      `${command} takes ${expected ? 'one email address' : 'no arguments'}.\n${STAFF_USAGE}`,
    )
  if (values.password !== undefined && command !== 'add')
    throw new UsageError('--password goes with add only.')
  if (command === 'add') return add(context, email ?? '', values.password)
  if (command === 'remove') return remove(context, email ?? '')
  if (command === 'reset-mfa') return resetMfa(context, email ?? '')
  return list(context)
}
