import { randomBytes, randomUUID } from 'node:crypto'
import type { Database, Queryable } from '../database'

/**
 * Supabase Auth's records in the tables GoTrue keeps them in (the subset bootstrap.sql creates):
 * users, sessions with their assurance level and methods (mfa_amr_claims), rotating refresh
 * tokens, TOTP factors and their challenges. Timestamps leave the database as ISO strings.
 */

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

export type UserRecord = {
  id: string
  email: string | null
  encrypted_password: string | null
  is_anonymous: boolean
  email_confirmed_at: string | null
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
}

export type FactorRecord = {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: string
  status: 'unverified' | 'verified'
  secret: string
  created_at: string
  updated_at: string
}

export type SessionRecord = {
  id: string
  user_id: string
  aal: 'aal1' | 'aal2'
  amr: { method: string; timestamp: number }[]
}

const USER_COLUMNS = `id::text, email, encrypted_password, is_anonymous,
  ${iso('email_confirmed_at')} as email_confirmed_at, ${iso('last_sign_in_at')} as last_sign_in_at,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`

const FACTOR_COLUMNS = `id::text, user_id::text, friendly_name, factor_type, status, secret,
  ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at`

/** A refresh token as GoTrue makes them: random, URL-safe, single use. */
const newRefreshToken = () => randomBytes(24).toString('base64url')
/** The shape of every token `newRefreshToken` makes; anything else is refused unread. */
export const isRefreshTokenShaped = (token: string) => /^[A-Za-z0-9_-]{32}$/.test(token)

export function createAuthStore(db: Database) {
  async function session(tx: Queryable, id: string): Promise<SessionRecord | null> {
    const [found] = await tx.query<{ id: string; user_id: string; aal: string | null }>(
      'select id::text, user_id::text, aal from auth.sessions where id = $1',
      [id],
    )
    if (!found) return null
    const amr = await tx.query<{ method: string; timestamp: number }>(
      `select authentication_method as method, extract(epoch from created_at)::bigint::int as timestamp
         from auth.mfa_amr_claims where session_id = $1 order by created_at desc`,
      [id],
    )
    return { ...found, aal: found.aal === 'aal2' ? 'aal2' : 'aal1', amr }
  }

  async function issueRefreshToken(tx: Queryable, sessionRecord: SessionRecord, parent?: string) {
    const token = newRefreshToken()
    await tx.query(
      `insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id)
       values ($1, $2, false, $3, $4)`,
      [token, sessionRecord.user_id, parent ?? null, sessionRecord.id],
    )
    return token
  }

  return {
    async userByEmail(email: string): Promise<UserRecord | null> {
      const [user] = await db.query<UserRecord>(
        `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1)`,
        [email],
      )
      return user ?? null
    },

    async userById(id: string): Promise<UserRecord | null> {
      const [user] = await db.query<UserRecord>(
        `select ${USER_COLUMNS} from auth.users where id = $1::uuid`,
        [id],
      )
      return user ?? null
    },

    async listUsers(page: number, perPage: number) {
      const users = await db.query<UserRecord>(
        `select ${USER_COLUMNS} from auth.users order by created_at, id limit $1 offset $2`,
        [perPage, (page - 1) * perPage],
      )
      const [total] = await db.query<{ n: number }>('select count(*)::int as n from auth.users')
      return { users, total: total?.n ?? 0 }
    },

    /** A confirmed email user (staff are added by the agency, never by signing up). */
    async createUser(email: string, passwordHash: string): Promise<UserRecord | null> {
      const [user] = await db.query<UserRecord>(
        `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data)
         values ($1, 'authenticated', 'authenticated', lower($2), $3, now(),
                 '{"provider":"email","providers":["email"]}', '{}')
         on conflict (email) do nothing
         returning ${USER_COLUMNS}`,
        [randomUUID(), email, passwordHash],
      )
      return user ?? null
    },

    async deleteUser(id: string): Promise<boolean> {
      const deleted = await db.query('delete from auth.users where id = $1::uuid returning id', [
        id,
      ])
      return deleted.length > 0
    },

    async factors(userId: string): Promise<FactorRecord[]> {
      return db.query<FactorRecord>(
        `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at`,
        [userId],
      )
    },

    /** Signs in: a new aal1 session with the password method, and its first refresh token. */
    async startSession(userId: string) {
      return db.transaction(async (tx) => {
        const id = randomUUID()
        await tx.query(`insert into auth.sessions (id, user_id, aal) values ($1, $2, 'aal1')`, [
          id,
          userId,
        ])
        await tx.query(
          `insert into auth.mfa_amr_claims (id, session_id, authentication_method) values ($1, $2, 'password')`,
          [randomUUID(), id],
        )
        await tx.query('update auth.users set last_sign_in_at = now() where id = $1', [userId])
        const started = (await session(tx, id)) as SessionRecord
        return { session: started, refreshToken: await issueRefreshToken(tx, started) }
      })
    },

    session: (id: string) => session(db, id),

    /**
     * Rotates a refresh token: the old one is revoked and a child issued. A revoked token used
     * again within `reuseSeconds` of its rotation answers with its live child (two tabs refreshing
     * at once); later, it is taken as stolen and the whole session is ended.
     */
    async rotate(token: string, reuseSeconds: number, timeboxSeconds: number) {
      return db.transaction(async (tx) => {
        const [found] = await tx.query<{
          session_id: string
          revoked: boolean
          recent: boolean
          expired: boolean
        }>(
          `select t.session_id::text, t.revoked,
                  t.updated_at > now() - make_interval(secs => $2) as recent,
                  s.created_at < now() - make_interval(secs => $3) as expired
             from auth.refresh_tokens as t join auth.sessions as s on s.id = t.session_id
            where t.token = $1 for update of t`,
          [token, reuseSeconds, timeboxSeconds],
        )
        if (!found) return { outcome: 'not_found' as const }
        // GoTrue's timebox: the session is past its lifetime, whatever the token.
        if (found.expired) return { outcome: 'expired' as const }
        const current = await session(tx, found.session_id)
        if (!current) return { outcome: 'not_found' as const }
        if (found.revoked) {
          const [child] = await tx.query<{ token: string }>(
            'select token from auth.refresh_tokens where parent = $1 and not revoked',
            [token],
          )
          if (found.recent && child) {
            return { outcome: 'rotated' as const, session: current, refreshToken: child.token }
          }
          await tx.query('delete from auth.sessions where id = $1', [current.id])
          return { outcome: 'reused' as const }
        }
        await tx.query(
          'update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1',
          [token],
        )
        await tx.query('update auth.sessions set updated_at = now() where id = $1', [current.id])
        return {
          outcome: 'rotated' as const,
          session: current,
          refreshToken: await issueRefreshToken(tx, current, token),
        }
      })
    },

    /** Ends sessions: this one (`local`), the user's others (`others`) or all (`global`). */
    async endSessions(userId: string, sessionId: string, scope: 'global' | 'local' | 'others') {
      const which = { global: 'true', local: 'id = $2::uuid', others: 'id <> $2::uuid' }[scope]
      // $2 is typed in every form, so the statement prepares whichever scope it is.
      await db.query(
        `delete from auth.sessions where user_id = $1 and $2::uuid is not null and ${which}`,
        [userId, sessionId],
      )
    },

    /** Every session of the user ends (their refresh tokens go with them). */
    async endAllSessions(userId: string) {
      await db.query('delete from auth.sessions where user_id = $1::uuid', [userId])
    },

    /** A new password; the user's other sessions end, this one stays. */
    async setPassword(userId: string, passwordHash: string, keptSessionId: string) {
      await db.transaction(async (tx) => {
        await tx.query(
          'update auth.users set encrypted_password = $2, updated_at = now() where id = $1::uuid',
          [userId, passwordHash],
        )
        await tx.query('delete from auth.sessions where user_id = $1::uuid and id <> $2::uuid', [
          userId,
          keptSessionId,
        ])
      })
    },

    async addFactor(userId: string, friendlyName: string | null, secret: string) {
      const [factor] = await db.query<FactorRecord>(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
         values ($1, $2, $3, 'totp', 'unverified', $4) returning ${FACTOR_COLUMNS}`,
        [randomUUID(), userId, friendlyName, secret],
      )
      return factor as FactorRecord
    },

    async removeFactor(id: string) {
      await db.query('delete from auth.mfa_factors where id = $1::uuid', [id])
    },

    async addChallenge(factorId: string) {
      const [challenge] = await db.query<{ id: string; created_at: number }>(
        `insert into auth.mfa_challenges (id, factor_id) values ($1, $2)
         returning id::text, extract(epoch from created_at)::bigint::int as created_at`,
        [randomUUID(), factorId],
      )
      return challenge as { id: string; created_at: number }
    },

    async challenge(id: string, factorId: string) {
      const [challenge] = await db.query<{ age_seconds: number; verified: boolean }>(
        `select extract(epoch from now() - created_at)::float8 as age_seconds,
                verified_at is not null as verified
           from auth.mfa_challenges where id = $1::uuid and factor_id = $2::uuid`,
        [id, factorId],
      )
      return challenge ?? null
    },

    /**
     * A verified second factor: the challenge is used up, the factor verified, the session raised
     * to aal2 with the totp method, and the user's other sessions below aal2 ended (as GoTrue does).
     * The code's time step must be later than the last one this factor accepted, or nothing
     * happens and null is returned: a code is accepted once (RFC 6238 §5.2; GoTrue accepts it
     * again within its window). The guarded update decides, so two requests racing with one code
     * cannot both pass.
     */
    async raiseToAal2(
      sessionRecord: SessionRecord,
      factorId: string,
      challengeId: string,
      totpStep: number,
    ) {
      return db.transaction(async (tx) => {
        const claimed = await tx.query(
          `update auth.mfa_factors set last_totp_step = $2
            where id = $1 and (last_totp_step is null or last_totp_step < $2) returning id`,
          [factorId, totpStep],
        )
        if (claimed.length === 0) return null
        await tx.query('update auth.mfa_challenges set verified_at = now() where id = $1', [
          challengeId,
        ])
        await tx.query(
          `update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`,
          [factorId],
        )
        await tx.query(
          `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1`,
          [sessionRecord.id, factorId],
        )
        await tx.query(
          `insert into auth.mfa_amr_claims (id, session_id, authentication_method) values ($1, $2, 'totp')`,
          [randomUUID(), sessionRecord.id],
        )
        await tx.query(
          `delete from auth.sessions where user_id = $1 and id <> $2 and coalesce(aal, 'aal1') <> 'aal2'`,
          [sessionRecord.user_id, sessionRecord.id],
        )
        await tx.query(
          'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1',
          [sessionRecord.id],
        )
        const raised = (await session(tx, sessionRecord.id)) as SessionRecord
        return { session: raised, refreshToken: await issueRefreshToken(tx, raised) }
      })
    },
  }
}

export type AuthStore = ReturnType<typeof createAuthStore>
