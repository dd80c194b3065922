import type { Queryable } from '../database'
import { refuse } from './errors'
import { quote } from './query'
import type { Context } from 'hono'
import type { Identity } from '../gateway'

/**
 * What PostgREST does before the statement a request asks for: find the relation in its schema
 * cache (404 PGRST205, 400 PGRST204), switch to the request's role (only one granted to
 * authenticator), apply that role's settings (`alter role anon set statement_timeout = '3s'`, as
 * Supabase's roles have: read from the database at every request, as PostgREST applies its cached
 * copy at every request), and set the request.* settings the policies and triggers read.
 */

/** One request as PostgREST sees it once the gateway let it through. */
export type RestRequest = {
  c: Context
  identity: Identity
  url: URL
  /** `Prefer: return=representation`: the written rows come back. */
  representation: boolean
}

export type Target = { relation: string; columns: string[] }

type Found = {
  columns: string[] | null
  may_switch: boolean | null
  /** [name, value] pairs, as PostgREST selects them (src/PostgREST/Config/Database.hs). */
  settings: [string, string][]
}

const LOOKUP = `
  select (select array_agg(attname::text order by attnum) from pg_catalog.pg_attribute
           where attrelid = to_regclass($1) and attnum > 0 and not attisdropped) as columns,
         (select pg_catalog.pg_has_role('authenticator', oid, 'MEMBER') from pg_catalog.pg_roles
           where rolname = $2) as may_switch,
         (select coalesce(json_agg(json_build_array(s.name, s.value)), '[]')
            from pg_catalog.pg_roles as r
           cross join lateral unnest(r.rolconfig) as config(setting)
           cross join lateral (select split_part(config.setting, '=', 1) as name,
                                      substr(config.setting, strpos(config.setting, '=') + 1) as value) as s
            join pg_catalog.pg_settings as p on p.name = s.name
           where r.rolname = $2 and s.name <> 'default_transaction_isolation'
             and (p.context = 'user'
                  or pg_catalog.has_parameter_privilege('authenticator', p.name, 'SET'))) as settings`

const ENTER = `
  select set_config('search_path', 'public, extensions', true),
         (select count(set_config(s ->> 0, s ->> 1, true)) from json_array_elements($6::json) as s),
         set_config('role', $5, true), set_config('request.jwt.claims', $1, true),
         set_config('request.method', $2, true), set_config('request.path', $3, true),
         set_config('request.headers', $4, true)`

export async function enterRequest(
  tx: Queryable,
  request: RestRequest,
  name: string | null,
  written: Record<string, unknown>,
  path = `/${name ?? ''}`,
): Promise<Target> {
  const { c, identity } = request
  const relation = name === null ? null : `${quote('public')}.${quote(name)}`
  const [found] = await tx.query<Found>(LOOKUP, [relation, identity.role])
  const target = { relation: relation ?? '', columns: found?.columns ?? [] }
  if (name !== null) {
    // What PostgREST knows from its schema cache is refused before it switches role.
    if (target.columns.length === 0)
      refuse(404, 'PGRST205', `Could not find the table 'public.${name}' in the schema cache`)
    const unknown = Object.keys(written)
      .filter((column) => !target.columns.includes(column))
      .sort()[0]
    if (unknown !== undefined)
      refuse(
        400,
        'PGRST204',
        `Could not find the '${unknown}' column of '${name}' in the schema cache`,
      )
  }
  if (found?.may_switch === null || found?.may_switch === undefined)
    throw Object.assign(new Error(`role "${identity.role}" does not exist`), { code: '22023' })
  if (!found.may_switch)
    throw Object.assign(new Error(`permission denied to set role "${identity.role}"`), {
      code: '42501',
    })
  // Lowercased, and only what the client sent: cf-connecting-ip is never invented here.
  const headers = Object.fromEntries(
    [...c.req.raw.headers].filter(([header]) => header !== 'cookie'),
  )
  await tx.query(ENTER, [
    JSON.stringify(identity.claims),
    c.req.method,
    path,
    JSON.stringify(headers),
    identity.role,
    JSON.stringify(found.settings),
  ])
  return target
}
