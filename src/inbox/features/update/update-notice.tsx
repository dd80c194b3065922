import { useEffect, useState, useSyncExternalStore } from 'react'
import { fetchBuildId } from '../../../shared/build-id'
import { copy } from '../../content/copy'
import { subscribeToUpdate, waitingUpdate } from './update-offer'

/**
 * A waiting version, named by its build id (the manifest the host serves now is the new one's),
 * taken only when staff press "Update".
 */
export function UpdateNotice() {
  const take = useSyncExternalStore(subscribeToUpdate, waitingUpdate, () => null)
  const [buildId, setBuildId] = useState<string | null | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (!take) return
    let current = true
    void fetchBuildId().then((id) => current && setBuildId(id))
    return () => {
      current = false
    }
  }, [take])
  if (!take || buildId === undefined) return null
  return (
    <section className="card update" role="status" aria-labelledby="update-heading">
      <h2 id="update-heading">{copy.update.heading}</h2>
      <p>{copy.update.ready(buildId)}</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true)
          void take()
        }}
      >
        {copy.update.take}
      </button>
    </section>
  )
}
