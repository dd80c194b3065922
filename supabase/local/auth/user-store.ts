import { randomUUID } from 'node:crypto'
import type { Database } from '../database'
import { USER_COLUMNS, type UserRecord } from './records'

/** Users: found, listed, created by the admin API, deleted, their password changed. */
export function userStore(db: Database) {
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
  }
}
