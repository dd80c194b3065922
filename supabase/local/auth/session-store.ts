import { randomUUID } from 'node:crypto'
import type { Database, Queryable } from '../database'
import { newRefreshToken, type SessionRecord } from './records'

/**
 * Sessions with their assurance level and methods (mfa_amr_claims), and their rotating refresh
 * tokens: started at sign-in, rotated at refresh, ended at sign-out.
 */
export async function sessionOf(tx: Queryable, id: string): Promise<SessionRecord | null> {
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

export async function issueRefreshToken(
  tx: Queryable,
  sessionRecord: SessionRecord,
  parent?: string,
) {
  const token = newRefreshToken()
  await tx.query(
    `insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id)
     values ($1, $2, false, $3, $4)`,
    [token, sessionRecord.user_id, parent ?? null, sessionRecord.id],
  )
  return token
}

export function sessionStore(db: Database) {
  return {
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
        const started = (await sessionOf(tx, id)) as SessionRecord
        return { session: started, refreshToken: await issueRefreshToken(tx, started) }
      })
    },
    session: (id: string) => sessionOf(db, id),
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
        const current = await sessionOf(tx, found.session_id)
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
  }
}
