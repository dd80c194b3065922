import { lazy, Suspense, useCallback, useEffect, useState } from 'react'
import { SecondFactor } from './auth/second-factor'
import { SignInForm } from './auth/sign-in-form'
import { copy } from './copy'
import { inboxEnv } from './inbox-env'
import { formatInterval } from './inquiries/format'
import type { ResponseTimes } from './inquiries/inbox-data'
import { InquiryDetail } from './inquiries/inquiry-detail'
import type { Inquiry } from './inquiries/inquiry'
import { InquiryList } from './inquiries/inquiry-list'
import { useAutoLock } from './key/use-auto-lock'
import { supabase } from './supabase-client'

// The key's code (age, scrypt) and the opening of rows load after sign-in: the first screen is
// the sign-in form, and needs neither.
const KeyGate = lazy(() => import('./key/key-gate').then((module) => ({ default: module.KeyGate })))
const inboxData = () => import('./inquiries/inbox-data')

type Stage = 'loading' | 'signed-out' | 'second-factor' | 'locked' | 'open'

/** Where the session stands: signed out, signed in without the second factor, or at aal2. */
async function stageOfSession(): Promise<Stage> {
  const { data } = await supabase.auth.getSession()
  if (!data.session) return 'signed-out'
  const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
  return level.data?.currentLevel === 'aal2' ? 'locked' : 'second-factor'
}

export function InboxApp() {
  const [stage, setStage] = useState<Stage>('loading')
  // The unlocked key and what it opened: in memory only, dropped on lock, sign-out and reload.
  const [identities, setIdentities] = useState<string[] | null>(null)
  const [inquiries, setInquiries] = useState<Inquiry[] | null>(null)
  const [times, setTimes] = useState<ResponseTimes | null>(null)
  const [selected, setSelected] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    document.title = copy.title(inboxEnv.agencyName)
    void stageOfSession().then(setStage)
  }, [])

  const lock = useCallback(() => {
    setIdentities(null)
    setInquiries(null)
    setSelected(null)
    setStage((current) => (current === 'open' ? 'locked' : current))
  }, [])
  useAutoLock(stage === 'open', lock)

  const refresh = useCallback(async (keys: string[]) => {
    setError(null)
    const { InboxDataError, loadInquiries, loadResponseTimes } = await inboxData()
    try {
      const [loaded, summary] = await Promise.all([loadInquiries(keys), loadResponseTimes()])
      setInquiries(loaded)
      setTimes(summary)
    } catch (failure) {
      setInquiries([])
      setError(
        failure instanceof InboxDataError && failure.kind === 'no-access'
          ? copy.list.noAccess
          : copy.list.loadFailed,
      )
    }
  }, [])

  useEffect(() => {
    if (stage !== 'open' || !identities) return
    const onFocus = () => void refresh(identities)
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [stage, identities, refresh])

  async function signOut() {
    lock()
    await supabase.auth.signOut()
    setStage('signed-out')
  }

  const header = stage !== 'signed-out' && stage !== 'loading' && (
    <header className="bar">
      <span>{copy.title(inboxEnv.agencyName)}</span>
      {stage === 'open' && (
        <button type="button" onClick={lock}>
          {copy.lock}
        </button>
      )}
      <button type="button" onClick={() => void signOut()}>
        {copy.signOut}
      </button>
    </header>
  )

  const selectedInquiry = inquiries?.find((inquiry) => inquiry.id === selected) ?? null
  return (
    <>
      {header}
      <main>
        {stage === 'signed-out' && (
          <SignInForm onSignedIn={() => void stageOfSession().then(setStage)} />
        )}
        {stage === 'second-factor' && <SecondFactor onVerified={() => setStage('locked')} />}
        {stage === 'locked' && (
          <Suspense fallback={null}>
            <KeyGate
              onUnlocked={(keys) => {
                setIdentities(keys)
                setStage('open')
                void refresh(keys)
              }}
            />
          </Suspense>
        )}
        {stage === 'open' && selectedInquiry && (
          <InquiryDetail
            inquiry={selectedInquiry}
            onBack={() => setSelected(null)}
            onChanged={(changed) =>
              setInquiries((current) =>
                (current ?? []).map((inquiry) => (inquiry.id === changed.id ? changed : inquiry)),
              )
            }
          />
        )}
        {stage === 'open' && !selectedInquiry && (
          <section aria-labelledby="list-heading">
            <div className="bar">
              <h1 id="list-heading">{copy.list.heading}</h1>
              <button type="button" onClick={() => identities && void refresh(identities)}>
                {copy.list.refresh}
              </button>
            </div>
            {times && times.p50 && (
              <p className="times">
                {copy.list.times(
                  formatInterval(times.p50),
                  formatInterval(times.p90),
                  `${Math.round((times.within_24h ?? 0) * 100)}%`,
                )}
              </p>
            )}
            {error && <p role="alert">{error}</p>}
            {inquiries && (
              <InquiryList inquiries={inquiries} onOpen={(inquiry) => setSelected(inquiry.id)} />
            )}
          </section>
        )}
      </main>
    </>
  )
}
