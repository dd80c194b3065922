import { openDB, type IDBPDatabase } from 'idb'
import type { InquiryRow } from './inquiry'

/**
 * The last list as the server sent it: sealed rows (ciphertext), which ones were overdue, and when
 * it was fetched. Kept so that the list can be read offline after unlocking. Nothing opened is
 * ever written here; sign-out removes it.
 */
export type SealedList = {
  rows: InquiryRow[]
  overdueIds: string[]
  fetchedAt: string
}

const DB_NAME = 'inbox-sealed-list'
const STORE = 'list'
const RECORD = 'last'

let opened: Promise<IDBPDatabase> | null = null
const database = () =>
  (opened ??= openDB(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE)
    },
  }))

export async function keepSealedList(list: SealedList): Promise<void> {
  await (await database()).put(STORE, list, RECORD)
}

export async function lastSealedList(): Promise<SealedList | null> {
  return ((await (await database()).get(STORE, RECORD)) as SealedList | undefined) ?? null
}

export async function forgetSealedList(): Promise<void> {
  await (await database()).delete(STORE, RECORD)
}
