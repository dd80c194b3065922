/**
 * The one owner of a waiting inbox version: the service worker's registration (app/main.tsx) offers
 * it, the notice shows it, and only the notice's "Update" takes it. Nothing else switches the code.
 */
type Take = () => Promise<void>

let waiting: Take | null = null
const listeners = new Set<() => void>()

export function offerUpdate(take: Take): void {
  waiting = take
  for (const listener of listeners) listener()
}

export function subscribeToUpdate(listener: () => void): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export const waitingUpdate = (): Take | null => waiting
