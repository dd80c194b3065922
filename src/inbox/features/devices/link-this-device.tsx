import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { copy } from '../../content/copy'
import { ScreenHeading } from '../../components/screen-heading'
import { LINK_LIFETIME_MS, newOneTimeKey, openKeySet, type OneTimeKey } from './device-link'
import { cancelLink, openLink, takeLink } from './device-link-data'

const QrCode = lazy(() => import('./qr-code').then((module) => ({ default: module.QrCode })))

const POLL_MS = 1500

type Phase =
  | { name: 'starting' }
  | { name: 'waiting'; key: OneTimeKey }
  | { name: 'compare'; identities: string[]; comparison: string }
  | { name: 'stopped'; sentence: string }

/**
 * The new device: the key set is handed up only once the person says both screens show the same
 * comparison code. The one-time identity lives in this component's memory only.
 */
export function LinkThisDevice({
  onReceived,
  onCancel,
}: {
  onReceived: (identities: string[]) => void
  onCancel: () => void
}) {
  const [phase, setPhase] = useState<Phase>({ name: 'starting' })
  const [attempt, setAttempt] = useState(0)
  const linkId = useRef<string | null>(null)

  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = Date.now() + LINK_LIFETIME_MS
    const stop = (sentence: string) => live && setPhase({ name: 'stopped', sentence })

    async function poll(key: OneTimeKey, id: string) {
      if (!live) return
      if (Date.now() > deadline) return stop(copy.devices.expired)
      // A lost answer (null) is asked again until the deadline.
      const taken = await takeLink(id)
      if (!live) return
      if (taken?.state === 'gone') return stop(copy.devices.expired)
      if (taken?.state === 'sealed') {
        linkId.current = null
        const opened = await openKeySet(key, taken.sealed).catch(() => null)
        if (!opened) return stop(copy.devices.broken)
        if (live) setPhase({ name: 'compare', ...opened })
        return
      }
      timer = setTimeout(() => void poll(key, id), POLL_MS)
    }

    void (async () => {
      const key = await newOneTimeKey()
      const id = await openLink(key.recipient, key.code)
      if (!id) return stop(copy.devices.openFailed)
      if (!live) return void cancelLink(id)
      linkId.current = id
      setPhase({ name: 'waiting', key })
      timer = setTimeout(() => void poll(key, id), POLL_MS)
    })().catch(() => stop(copy.devices.openFailed))
    return () => {
      live = false
      clearTimeout(timer)
      // Leaving before the key set arrived: the row goes now, not in 10 minutes.
      if (linkId.current) void cancelLink(linkId.current)
      linkId.current = null
    }
  }, [attempt])

  const again = () => {
    setPhase({ name: 'starting' })
    setAttempt((count) => count + 1)
  }
  const cancel = (
    <button type="button" onClick={onCancel}>
      {copy.devices.cancel}
    </button>
  )

  if (phase.name === 'compare') {
    return (
      <section className="card" aria-labelledby="compare-heading">
        <ScreenHeading id="compare-heading">{copy.devices.compareHeading}</ScreenHeading>
        <p>{copy.devices.compareLead}</p>
        <p className="comparison" data-testid="comparison-code">
          {phase.comparison}
        </p>
        <div className="actions">
          <button type="button" className="primary" onClick={() => onReceived(phase.identities)}>
            {copy.devices.matches}
          </button>
          <button
            type="button"
            onClick={() => setPhase({ name: 'stopped', sentence: copy.devices.refused })}
          >
            {copy.devices.differ}
          </button>
        </div>
      </section>
    )
  }

  return (
    <section className="card" aria-labelledby="link-heading">
      <ScreenHeading id="link-heading">{copy.devices.linkHeading}</ScreenHeading>
      {phase.name === 'starting' && <p role="status">{copy.devices.starting}</p>}
      {phase.name === 'waiting' && (
        <>
          <p>{copy.devices.linkLead}</p>
          <p className="link-code" data-testid="link-code">
            <span className="visually-hidden">{copy.devices.code}: </span>
            {phase.key.code}
          </p>
          <Suspense fallback={null}>
            <QrCode
              text={`${window.location.origin}/devices/add/${phase.key.code.replaceAll(' ', '-')}`}
              label={copy.devices.qrLabel(phase.key.code)}
            />
          </Suspense>
          <p role="status">{copy.devices.waiting}</p>
        </>
      )}
      {phase.name === 'stopped' && (
        <>
          <p role="alert">{phase.sentence}</p>
          <button type="button" onClick={again}>
            {copy.devices.again}
          </button>
        </>
      )}
      {cancel}
    </section>
  )
}
