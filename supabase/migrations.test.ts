// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { generateIdentity, identityToRecipient } from 'age-encryption'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sealSubmission } from '../src/features/contact/sealing/seal-submission'
import {
  BUDGET_VALUES,
  LIMITS,
  PROJECT_TYPE_VALUES,
  submissionFieldsSchema,
} from '../src/shared/submission/fields'
import { buildDocument, type SubmissionDocument } from '../src/shared/submission/sealed-document'
import { isAgeArmor, keySetId } from '../src/shared/submission/sealed-row'
import { armorSamples, NIGHT_OWL } from '../src/shared/submission/submission-test-fixtures'
import { asPgError, type Database } from './local/database'
import { openPgliteDatabase } from './local/db/pglite'
import { migrate } from './local/migrations'

/**
 * Since sealing, the limits live in two places that must fit together, by hand (one is TypeScript,
 * the other SQL): the browser's zod schema governs the sealed document's fields (the database sees
 * ciphertext only and cannot check them), and the migrations govern what the database can see:
 * which columns anon may send, the armor's format and size bound, and which key ids it accepts.
 * These tests keep them in step on the real migrations (PGlite): first by reading what the migrated
 * catalog states (grants, checks), then by sealing with the browser's own code and inserting as anon.
 */

/** The integer `pattern` captures in `text` (a definition read back from the migrated catalog). */
function numberIn(text: string, pattern: RegExp): number {
  const value = pattern.exec(text)?.[1]
  if (value === undefined) throw new Error(`${pattern.source} not found in: ${text}`)
  return Number(value)
}

async function recipients(count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async () => identityToRecipient(await generateIdentity())),
  )
}

/** The costliest character for the sealed size: JSON.stringify writes it as a 6-byte "\u0001". */
const CONTROL = '\u0001'
const longest = (values: readonly string[]) =>
  values.reduce((a, b) => (b.length > a.length ? b : a))

/** A document the form can produce, built as the form builds it from what the schema accepts. */
function documentFrom(input: Record<string, unknown>, userAgent = 'vitest'): SubmissionDocument {
  const fields = submissionFieldsSchema.parse({ project_type: null, budget: null, ...input })
  return buildDocument(fields, {
    id: crypto.randomUUID(),
    now: Date.now(),
    userAgent,
    replyTo: NIGHT_OWL.reply_to,
    signingKey: NIGHT_OWL.signing_key,
  })
}

/** The largest document the schema accepts: every field at its limit, every character escaped. */
const largestDocument = () =>
  documentFrom(
    {
      name: CONTROL.repeat(LIMITS.name),
      contact: CONTROL.repeat(LIMITS.contact),
      project_type: longest(PROJECT_TYPE_VALUES),
      budget: longest(BUDGET_VALUES),
      message: CONTROL.repeat(LIMITS.message),
    },
    CONTROL.repeat(LIMITS.userAgent),
  )

describe('the migrations and the sealed row the browser sends', () => {
  let db: Database
  /** The sealed row's size bound as the table's check states it. */
  let bound: number
  /** The most recipients a key set may have, as the database's recipient check decides. */
  let maxRecipients: number

  beforeAll(async () => {
    db = await openPgliteDatabase('memory')
    await migrate(db)
    const [table] = await db.query<{ checks: string }>(
      `select string_agg(pg_get_constraintdef(oid), ' ') as checks from pg_constraint
        where conrelid = 'public.contact_submissions'::regclass and contype = 'c'`,
    )
    bound = numberIn(table?.checks ?? '', /octet_length\(sealed\) <= (\d+)/)
    const many = await recipients(12)
    maxRecipients = 0
    for (let count = 1; count <= many.length; count += 1) {
      const [row] = await db.query<{ ok: boolean }>('select private.are_age_recipients($1) as ok', [
        many.slice(0, count),
      ])
      if (row?.ok) maxRecipients = count
    }
  }, 120_000)

  afterAll(async () => {
    await db?.close()
  })

  it('anon may insert exactly the columns of the row sealSubmission returns', async () => {
    const insertable = await db.query<{ column: string }>(
      `select attname::text as column from pg_attribute
        where attrelid = 'public.contact_submissions'::regclass and attnum > 0 and not attisdropped
          and has_column_privilege('anon', attrelid, attnum, 'INSERT')`,
    )
    const columns = insertable.map((row) => row.column)
    const row = await sealSubmission(
      documentFrom({ name: 'Ada', contact: '@ada', message: 'Hi' }),
      await recipients(1),
    )
    // Plus mailbox_hash, which the row gets from the receipt once it is sealed.
    expect(columns?.sort()).toEqual([...new Set([...Object.keys(row), 'mailbox_hash'])].sort())
  })

  it('the size check and the armor check state the same bound', async () => {
    const [armorCheck] = await db.query<{ definition: string }>(
      `select pg_get_functiondef('private.is_age_armor'::regproc) as definition`,
    )
    expect(numberIn(armorCheck?.definition ?? '', /octet_length\(armor\) > (\d+)/)).toBe(bound)
    expect(maxRecipients).toBe(10)
  })

  it('the largest document the schema accepts, sealed to the most recipients a key set may have and the visitor’s own, fits the bound', async () => {
    // Every inquiry is also sealed to the recipient its receipt derives, so the visitor reads it back.
    const { sealed } = await sealSubmission(largestDocument(), await recipients(maxRecipients + 1))
    expect(sealed.length).toBeLessThanOrEqual(bound)
    // A bound far above the largest real row would let every row cost more than it needs to.
    expect(sealed.length).toBeGreaterThan(bound * 0.9)
  })

  it('a 5,000-character brief of 4-byte characters fits with room to spare', async () => {
    const emoji = '😀'.repeat(LIMITS.message / 2) // zod counts UTF-16 units: 2 per emoji
    const { sealed } = await sealSubmission(
      documentFrom({ name: 'Ada', contact: '@ada', message: emoji }),
      await recipients(2),
    )
    expect(sealed.length).toBeLessThan(bound / 2)
  })
})

describe('whatever the browser seals, the database accepts from anon', () => {
  let db: Database
  let keyRecipients: string[]
  let keyId: string

  beforeAll(async () => {
    db = await openPgliteDatabase('memory')
    await migrate(db)
    keyRecipients = await recipients(2)
    const [row] = await db.query<{ key_id: string }>(
      'select private.register_submission_key($1) as key_id',
      [keyRecipients],
    )
    keyId = row?.key_id ?? ''
  }, 120_000)

  afterAll(async () => {
    await db?.close()
  })

  /**
   * Inserts as anon, the way the API does, with a mailbox of its own unless the row names one;
   * returns the error, or null if accepted.
   */
  async function insertAsAnon(sealedRow: Record<string, unknown>): Promise<string | null> {
    const row: Record<string, unknown> = {
      mailbox_hash: randomBytes(32),
      ...sealedRow,
    }
    const columns = Object.keys(row)
    try {
      await db.transaction(async (tx) => {
        await tx.exec('set local role anon')
        await tx.query(
          `insert into public.contact_submissions (${columns.join(', ')})
           values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
          Object.values(row),
        )
        // Keep the table empty: only the verdict matters.
        await tx.exec('reset role')
        await tx.query('delete from public.contact_submissions where id = $1', [row.id])
      })
      return null
    } catch (error) {
      const pgError = asPgError(error)
      return pgError ? `${pgError.code} ${pgError.message}` : String(error)
    }
  }

  it('the browser computes the key_id the database registers', async () => {
    expect(await keySetId([...keyRecipients].reverse())).toBe(keyId)
  })

  it("the contract's armor check and the database's give the same verdict on every sample", async () => {
    const samples = await armorSamples(keyRecipients[0] ?? '')
    for (const [name, { armor, valid }] of Object.entries(samples)) {
      const [row] = await db.query<{ valid: boolean }>('select private.is_age_armor($1) as valid', [
        armor,
      ])
      expect(row?.valid, name).toBe(valid)
      expect(isAgeArmor(armor), name).toBe(valid)
    }
  })

  it('every edge case the schema accepts is accepted once sealed', async () => {
    const whitespace = [' ', '\t', '\n', '\u00a0', '\u2028', '\u3000', '\ufeff']
    const texts = (limit: number) => [
      'a',
      'x'.repeat(limit),
      'é'.repeat(limit),
      '😀'.repeat(limit / 2),
      CONTROL.repeat(limit),
      'two\nlines',
      'עברית ومرحبا',
      ...whitespace.map((space) => `${space}a${space}`),
    ]
    const base = {
      name: 'Ada',
      contact: '@ada',
      project_type: null,
      budget: null,
      message: 'Hello',
    }
    const inputs = [
      ...texts(LIMITS.name).map((name) => ({ ...base, name })),
      ...texts(LIMITS.contact).map((contact) => ({ ...base, contact })),
      ...texts(LIMITS.message).map((message) => ({ ...base, message })),
      ...PROJECT_TYPE_VALUES.map((project_type) => ({ ...base, project_type })),
      ...BUDGET_VALUES.map((budget) => ({ ...base, budget })),
    ]
    let accepted = 0
    for (const input of inputs) {
      if (!submissionFieldsSchema.safeParse(input).success) continue
      accepted += 1
      const row = await sealSubmission(documentFrom(input), keyRecipients)
      expect(await insertAsAnon(row), JSON.stringify(input).slice(0, 80)).toBeNull()
    }
    // The samples must exercise the accepting side, or this test could not fail.
    expect(accepted).toBeGreaterThan(30)
  }, 60_000)

  it('the largest document is accepted too', async () => {
    expect(await insertAsAnon(await sealSubmission(largestDocument(), keyRecipients))).toBeNull()
  })

  it('plaintext, a foreign armor and an unregistered key set are refused', async () => {
    const row = await sealSubmission(
      documentFrom({ name: 'Ada', contact: '@ada', message: 'Hi' }),
      keyRecipients,
    )
    // There is no plaintext column to send it to.
    expect(await insertAsAnon({ ...row, message: 'Hi' })).toMatch(/^42703 /)
    expect(await insertAsAnon({ ...row, sealed: 'Hi' })).toMatch(
      /^23514 .*contact_submissions_sealed_format_check/,
    )
    const stranger = await sealSubmission(
      documentFrom({ name: 'Ada', contact: '@ada', message: 'Hi' }),
      await recipients(1),
    )
    expect(await insertAsAnon(stranger)).toMatch(
      /^23503 key_id does not name an active submission key/,
    )
  })
})
