import { lazy, Suspense, useState, useSyncExternalStore } from 'react'
import { forgetDevice } from '../../content/forget-device'
import { SERVER_SNAPSHOT } from '../outbox/outbox-engine'
import { outbox } from '../outbox/use-outbox'

// What asks, removes and answers loads on the first press: none of it weighs on the page.
const ForgetDeviceSteps = lazy(() =>
  import('./forget-device-steps').then((module) => ({ default: module.ForgetDeviceSteps })),
)

export const forgetButtonClass =
  'inline-flex min-h-12 items-center justify-center rounded-full border border-line px-6 py-3 font-semibold text-text hover:border-mint'

/**
 * "Forget this site on this device": after a press, says what waits in the outbox and whether a
 * receipt is kept, and removes it all only once the visitor confirms.
 */
export function ForgetDevice() {
  const { counts } = useSyncExternalStore(
    outbox.subscribe,
    outbox.getSnapshot,
    () => SERVER_SNAPSHOT,
  )
  const [asked, setAsked] = useState(false)
  return (
    <section aria-labelledby="forget-device-heading" className="surface-card h-fit p-6">
      <h2 id="forget-device-heading" className="text-xl font-semibold">
        {forgetDevice.heading}
      </h2>
      <p className="mt-2 text-sm text-muted">{forgetDevice.body}</p>
      {asked ? (
        <Suspense fallback={null}>
          <ForgetDeviceSteps
            waiting={counts.pending + counts.needsAttention}
            onCancel={() => setAsked(false)}
          />
        </Suspense>
      ) : (
        <button
          type="button"
          className={`${forgetButtonClass} mt-4`}
          onClick={() => setAsked(true)}
        >
          {forgetDevice.start}
        </button>
      )}
    </section>
  )
}
