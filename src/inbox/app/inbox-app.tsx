import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { SecondFactor } from '../features/auth/second-factor'
import { SignInForm } from '../features/auth/sign-in-form'
import { copy } from '../content/copy'
import { inboxEnv } from '../lib/inbox-env'
import type { ResponseTimes } from '../features/inquiries/inbox-data'
import { InquiryDetail } from '../features/inquiries/inquiry-detail'
import type { Inquiry } from '../features/inquiries/inquiry'
import { usePullToRefresh } from '../features/inquiries/use-pull-to-refresh'
import { useAutoLock } from '../features/key/use-auto-lock'
import { useThread } from '../features/conversation/use-thread'
import { supabase } from '../lib/supabase-client'
import { ListScreen } from '../screens/list-screen'

// The key's code (age, scrypt) and the opening of rows load after sign-in: the first screen is
// the sign-in form, and needs neither.
const KeyGate = lazy(() =>
  import('../features/key/key-gate').then((module) => ({ default: module.KeyGate })),
)
const inboxData = () => import('../features/inquiries/inbox-data')

type Stage = 'loading' | 'signed-out' | 'second-factor' | 'locked' | 'open'

/**
 * The inquiry a staff alert links to (`/?ref=1a2b3c4d`, its reference and nothing else): opened
 * once the list is, after sign-in and unlock. Read once and taken off the address bar.
 */
function linkedReference(): string | null {
  const ref = new URLSearchParams(window.location.search).get('ref')
  if (ref !== null) window.history.replaceState(null, '', window.location.pathname)
  return ref !== null && /^[0-9a-f]{8}$/.test(ref) ? ref : null
}

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
  // The inquiry last closed with "All inquiries": its row takes the focus back in the list.
  const [returnedFrom, setReturnedFrom] = useState<string | null>(null)
  const linked = useRef<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  // When the list shown is the one kept on this device, because the server could not be reached.
  const [offlineSince, setOfflineSince] = useState<string | null>(null)

  useEffect(() => {
    document.title = copy.title(inboxEnv.agencyName)
    linked.current ??= linkedReference()
    void stageOfSession().then(setStage)
  }, [])

  const lock = useCallback(() => {
    setIdentities(null)
    setInquiries(null)
    setSelected(null)
    setReturnedFrom(null)
    setStage((current) => (current === 'open' ? 'locked' : current))
  }, [])
  useAutoLock(stage === 'open', lock)

  const refresh = useCallback(async (keys: string[], notice?: string) => {
    setError(notice ?? null)
    const { InboxDataError, loadInquiries, loadResponseTimes } = await inboxData()
    try {
      const loaded = await loadInquiries(keys)
      setInquiries(loaded.inquiries)
      setOfflineSince(loaded.offlineSince)
      const ref = linked.current
      linked.current = null
      const target = ref && loaded.inquiries.find((inquiry) => inquiry.id.startsWith(ref))
      if (target) setSelected(target.id)
      // The summary is a nicety: without it (offline, say) the list still shows.
      setTimes(loaded.offlineSince ? null : await loadResponseTimes().catch(() => null))
    } catch (failure) {
      setInquiries([])
      setOfflineSince(null)
      setError(
        failure instanceof InboxDataError && failure.kind === 'no-access'
          ? copy.list.noAccess
          : copy.list.loadFailed,
      )
    }
  }, [])

  const refreshOpenList = useCallback(() => {
    if (identities) void refresh(identities)
  }, [identities, refresh])
  const pullArmed = usePullToRefresh(stage === 'open', refreshOpenList)

  useEffect(() => {
    if (stage !== 'open' || !identities) return
    const onFocus = () => void refresh(identities)
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [stage, identities, refresh])

  async function signOut() {
    lock()
    // Ends the session on the server and removes it from this tab, and the sealed list kept for
    // reading offline goes with it. The key stays, encrypted ("Remove the key" removes it).
    const [{ forgetSealedList }] = await Promise.all([
      import('../features/inquiries/list-cache'),
      supabase.auth.signOut(),
    ])
    await forgetSealedList()
    setStage('signed-out')
  }

  // The agency's name from the first screen on, so staff know where they are signing in.
  const header = stage !== 'loading' && (
    <header className="bar">
      <span>{copy.title(inboxEnv.agencyName)}</span>
      {stage === 'open' && (
        <button type="button" onClick={lock}>
          {copy.lock}
        </button>
      )}
      {stage !== 'signed-out' && (
        <button type="button" onClick={() => void signOut()}>
          {copy.signOut}
        </button>
      )}
    </header>
  )

  const replaceInquiry = useCallback(
    (changed: Inquiry) =>
      setInquiries((current) =>
        (current ?? []).map((inquiry) => (inquiry.id === changed.id ? changed : inquiry)),
      ),
    [],
  )
  const selectedInquiry = inquiries?.find((inquiry) => inquiry.id === selected) ?? null
  // The open inquiry's conversation, opened with the key like the list: dropped with it on lock.
  const conversation = useThread(
    stage === 'open' ? selectedInquiry : null,
    identities,
    replaceInquiry,
  )
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
              onUnlocked={(keys, notice) => {
                setIdentities(keys)
                setStage('open')
                void refresh(keys, notice)
              }}
            />
          </Suspense>
        )}
        {stage === 'open' && selectedInquiry && (
          <InquiryDetail
            inquiry={selectedInquiry}
            agencyName={inboxEnv.agencyName}
            identities={identities ?? []}
            thread={conversation.thread}
            onBack={() => {
              setReturnedFrom(selectedInquiry.id)
              setSelected(null)
            }}
            onChanged={replaceInquiry}
            onReply={conversation.sendReply}
            onRetryThread={conversation.reload}
          />
        )}
        {stage === 'open' && !selectedInquiry && (
          <ListScreen
            inquiries={inquiries}
            times={times}
            pullArmed={pullArmed}
            error={error}
            offlineSince={offlineSince}
            returnedFrom={returnedFrom}
            onRefresh={refreshOpenList}
            onOpen={(inquiry) => setSelected(inquiry.id)}
          />
        )}
      </main>
    </>
  )
}
