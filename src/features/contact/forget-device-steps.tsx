import { useState } from 'react'
import { forgetDeviceSteps as copy } from '../../content/forget-device-steps'
import { forgetOrigin } from '../../shared/forget-origin-browser'
import { forgetButtonClass } from './forget-device'
import { keptReceipt } from './kept-receipt'
import { OUTBOX_DB_NAME } from '../outbox/outbox-definitions'

const primary =
  'inline-flex min-h-12 items-center justify-center rounded-full bg-mint px-6 py-3 font-semibold text-on-accent hover:bg-mint-strong'

/** The confirmation (what will be lost), then the removal, then the answer. */
export function ForgetDeviceSteps({
  waiting,
  onCancel,
}: {
  waiting: number
  onCancel: () => void
}) {
  const [step, setStep] = useState<'confirming' | 'working' | 'done' | 'failed'>('confirming')
  const [receiptKept] = useState(() => keptReceipt() !== null)

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
    <>
      {(step === 'confirming' || step === 'failed') && (
        <div role="alertdialog" aria-labelledby="forget-device-confirm" className="mt-4 grid gap-3">
          <p id="forget-device-confirm" className="text-sm text-text">
            {copy.confirm(waiting, receiptKept)}
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={primary} onClick={() => void forget()}>
              {copy.confirmButton}
            </button>
            <button type="button" className={forgetButtonClass} onClick={onCancel}>
              {copy.cancel}
            </button>
          </div>
        </div>
      )}
      <p role="status" className="mt-3 text-sm text-text">
        {step === 'working' ? copy.working : step === 'done' ? copy.done : ''}
      </p>
      {step === 'failed' && (
        <p role="alert" className="mt-3 text-sm text-text">
          {copy.failed}
        </p>
      )}
    </>
  )
}
