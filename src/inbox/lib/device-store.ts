import { openDB, type IDBPDatabase } from 'idb'

/** Records kept on this device: one object store in an IndexedDB database of its own. */
export function deviceStore(database: string, store: string) {
  const use = async <T>(run: (db: IDBPDatabase) => Promise<T>) => {
    const db = await openDB(database, 1, {
      upgrade: (fresh) => void fresh.createObjectStore(store),
    })
    try {
      return await run(db)
    } finally {
      db.close()
    }
  }
  return {
    get: <T>(key: string) => use((db) => db.get(store, key) as Promise<T | undefined>),
    put: (key: string, value: unknown) => use((db) => db.put(store, value, key)),
    delete: (...keys: string[]) =>
      use((db) => Promise.all(keys.map((key) => db.delete(store, key)))),
  }
}
