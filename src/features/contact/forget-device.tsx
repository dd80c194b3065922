import { useState, useSyncExternalStore } from 'react'
import { forgetDevice } from '../../content/forget-device'
import { forgetOrigin } from '../../shared/forget-origin-browser'
import { keptReceipt } from './kept-receipt'
import { OUTBOX_DB_NAME } from './outbox/outbox-definitions'
import { SERVER_SNAPSHOT } from './outbox/outbox-engine'
import { outbox } from './outbox/use-outbox'

const primary =
  'inline-flex min-h-12 items-center justify-center rounded-full bg-mint px-6 py-3 font-semibold text-on-accent hover:bg-mint-strong'
const secondary =
  'inline-flex min-h-12 items-center justify-center rounded-full border border-line px-6 py-3 font-semibold text-text hover:border-mint'

type Step = 'idle' | 'confirming' | 'working' | 'done' | 'failed'

/**
 * "Forget this site on this device": says what waits in the outbox and whether a receipt is kept,
 * and removes it all only once the visitor confirms.
 */
export function ForgetDevice() {
  const { counts } = useSyncExternalStore(
    outbox.subscribe,
    outbox.getSnapshot,
    () => SERVER_SNAPSHOT,
  )
  const [step, setStep] = useState<Step>('idle')
  const waiting = counts.pending + counts.needsAttention

  async function forget() {
    setStep('working')
    try {
      await forgetOrigin([OUTBOX_DB_NAME])
      setStep('done')
    } catch (error) {
      console.warn('forgetting this device failed', error)
      setStep('failed')
    }
  }

  return (
    <section aria-labelledby="forget-device-heading" className="surface-card h-fit p-6">
      <h2 id="forget-device-heading" className="text-xl font-semibold">
        {forgetDevice.heading}
      </h2>
      <p className="mt-2 text-sm text-muted">{forgetDevice.body}</p>
      {step === 'confirming' ? (
        <div role="alertdialog" aria-labelledby="forget-device-confirm" className="mt-4 grid gap-3">
          <p id="forget-device-confirm" className="text-sm text-text">
            {forgetDevice.confirm(waiting, keptReceipt() !== null)}
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={primary} onClick={() => void forget()}>
              {forgetDevice.confirmButton}
            </button>
            <button type="button" className={secondary} onClick={() => setStep('idle')}>
              {forgetDevice.cancel}
            </button>
          </div>
        </div>
      ) : step === 'idle' || step === 'failed' ? (
        <button type="button" className={`${secondary} mt-4`} onClick={() => setStep('confirming')}>
          {forgetDevice.start}
        </button>
      ) : null}
      <p role="status" className="mt-3 text-sm text-text">
        {step === 'working' ? forgetDevice.working : step === 'done' ? forgetDevice.done : ''}
      </p>
      {step === 'failed' && (
        <p role="alert" className="mt-3 text-sm text-text">
          {forgetDevice.failed}
        </p>
      )}
    </section>
  )
}
