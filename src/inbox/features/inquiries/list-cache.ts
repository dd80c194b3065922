import { deviceStore } from '../../lib/device-store'
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

const kept = deviceStore('inbox-sealed-list', 'list')

export const keepSealedList = (list: SealedList) => kept.put('last', list)
export const lastSealedList = async () => (await kept.get<SealedList>('last')) ?? null
export const forgetSealedList = () => kept.delete('last')
