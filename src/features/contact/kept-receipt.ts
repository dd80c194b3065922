/**
 * "Keep it on this device": the one place the receipt may be stored, and only when the visitor
 * ticks the box on the panel (off by default). /replies fills its field from it. Unticking removes
 * it. Nothing else writes the receipt anywhere.
 */
const KEY = 'secure-contact:receipt'

export function keptReceipt(): string | null {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}

/** Stores or removes the receipt; false when this browser's storage refused (private mode, quota). */
export function keepReceipt(receipt: string | null): boolean {
  try {
    if (receipt === null) localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, receipt)
    return true
  } catch {
    return false
  }
}
