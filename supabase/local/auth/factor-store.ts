import { randomUUID } from 'node:crypto'
import type { Database } from '../database'
import { FACTOR_COLUMNS, type FactorRecord, type SessionRecord } from './records'
import { issueRefreshToken, sessionOf } from './session-store'

/** TOTP factors and their challenges; a verified one raises its session to aal2. */
export function factorStore(db: Database) {
  return {
    async factors(userId: string): Promise<FactorRecord[]> {
      return db.query<FactorRecord>(
        `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at`,
        [userId],
      )
    },
    async addFactor(userId: string, friendlyName: string | null, secret: string) {
      const [factor] = await db.query<FactorRecord>(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
       values ($1, $2, $3, 'totp', 'unverified', $4) returning ${FACTOR_COLUMNS}`,
        [randomUUID(), userId, friendlyName, secret],
      )
      return factor as FactorRecord
    },
    /**
     * Unenrols a factor as GoTrue does (DowngradeSessionsToAAL1): the sessions it raised drop to
     * aal1 and lose its method, so their next refresh says aal1, then the factor goes.
     */
    async removeFactor(id: string) {
      await db.transaction(async (tx) => {
        await tx.query(
          `delete from auth.mfa_amr_claims
            where authentication_method = 'totp'
              and session_id in (select s.id from auth.sessions as s where s.factor_id = $1::uuid)`,
          [id],
        )
        await tx.query(
          `update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
            where factor_id = $1::uuid`,
          [id],
        )
        await tx.query('delete from auth.mfa_factors where id = $1::uuid', [id])
      })
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
        const raised = (await sessionOf(tx, sessionRecord.id)) as SessionRecord
        return { session: raised, refreshToken: await issueRefreshToken(tx, raised) }
      })
    },
  }
}
