import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { AccountPanel } from '../features/auth/account-panel'
import { SecondFactor } from '../features/auth/second-factor'
import { SignInForm } from '../features/auth/sign-in-form'
import { sessionOutlived } from '../features/auth/trusted-session'
import { copy } from '../content/copy'
import { inboxEnv } from '../lib/inbox-env'
import type { ResponseTimes } from '../features/inquiries/inbox-data'
import { InquiryDetail } from '../features/inquiries/inquiry-detail'
import type { Inquiry } from '../features/inquiries/inquiry'
import { NO_TRIAGE, type Triage } from '../features/inquiries/triage'
import { usePullToRefresh } from '../features/inquiries/use-pull-to-refresh'
import { useAutoLock } from '../features/key/use-auto-lock'
import { useThread } from '../features/conversation/use-thread'
import { SESSION_STORAGE_KEY } from '../lib/session-storage'
import { sessionStore, supabase } from '../lib/supabase-client'
import { ListScreen } from '../screens/list-screen'

// The key's code (age, scrypt) and the opening of rows load after sign-in: the first screen is
// the sign-in form, and needs neither.
const KeyGate = lazy(() =>
  import('../features/key/key-gate').then((module) => ({ default: module.KeyGate })),
)
const inboxData = () => import('../features/inquiries/inbox-data')
// Adding a device and the passkey's offer: only for an unlocked key, loaded with it.
const AddDevice = lazy(() =>
  import('../features/devices/add-device').then((module) => ({ default: module.AddDevice })),
)
const PasskeyOffer = lazy(() =>
  import('../features/key/passkey-offer').then((module) => ({ default: module.PasskeyOffer })),
)

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

/**
 * The linking code a new device's QR code carries (`/?link=word-word-word-word-word`: a public
 * key's fingerprint, nothing secret): "Add a device" opens with it once the key is unlocked. Read
 * at the first render; the first effect takes it off the address bar.
 */
function linkingCode(): string | null {
  if (typeof window === 'undefined') return null
  const code = new URLSearchParams(window.location.search).get('link')
  return code !== null && /^[a-z]{3,8}(-[a-z]{3,8}){4}$/.test(code)
    ? code.replaceAll('-', ' ')
    : null
}

/** Set while this page signs itself out, so its own SIGNED_OUT is not taken for an ending. */
let signingOutHere = false

async function signOutHere(scope: 'local' | 'global') {
  signingOutHere = true
  try {
    await supabase.auth.signOut({ scope })
  } finally {
    signingOutHere = false
  }
}

/**
 * A session past the agency's period (VITE_INBOX_TRUSTED_DAYS from its password sign-in) is
 * ended here and on the server: what "Keep me signed in" promised has run out.
 */
async function endOutlivedSession(): Promise<boolean> {
  const { data } = await supabase.auth.getSession()
  if (!data.session) return false
  if (!sessionOutlived(data.session.access_token, inboxEnv.trustedSessionDays)) return false
  await signOutHere('local')
  return true
}

/**
 * Whether Auth says this session has ended (signed out everywhere, or elsewhere, or a password
 * change on another device): the database refuses such a token, and so does Auth, which is how
 * the inbox tells it from a removal from the staff list. auth-js then removes it from storage.
 */
async function sessionEnded(): Promise<boolean> {
  const { error } = await supabase.auth.getUser()
  return error?.name === 'AuthSessionMissingError' || error?.status === 403
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
  // "Add a device" (null: not open; else the code to fill in, '' when none was scanned): the
  // key set is sealed from here to a new device's one-time key.
  const [addingDevice, setAddingDevice] = useState<string | null>(linkingCode)
  // The inquiry last closed with "All inquiries": its row takes the focus back in the list.
  const [returnedFrom, setReturnedFrom] = useState<string | null>(null)
  const linked = useRef<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  // When the list shown is the one kept on this device, because the server could not be reached.
  const [offlineSince, setOfflineSince] = useState<string | null>(null)
  // Why the session ended, said on the sign-in screen: signed out elsewhere, or the period.
  const [endedNotice, setEndedNotice] = useState<string | undefined>(undefined)

  useEffect(() => {
    document.title = copy.title(inboxEnv.agencyName)
    linked.current ??= linkedReference()
    if (new URLSearchParams(window.location.search).has('link'))
      window.history.replaceState(null, '', window.location.pathname)
    void endOutlivedSession().then(async (ended) => {
      if (ended) setEndedNotice(copy.signIn.periodEnded(inboxEnv.trustedSessionDays))
      setStage(await stageOfSession())
    })
  }, [])

  // The load under way: aborted on lock and by the next load, so nothing opens with a dropped key.
  const loading = useRef<AbortController | null>(null)
  const inquiriesNow = useRef<Inquiry[] | null>(null)
  useEffect(() => {
    inquiriesNow.current = inquiries
  }, [inquiries])
  // How far the opening of the list has come, while it is under way (the list shows as it opens).
  const [progress, setProgress] = useState<{ opened: number; total: number | null } | null>(null)
  const progressNow = useRef(progress)
  useEffect(() => {
    progressNow.current = progress
  }, [progress])

  // The search and filters over the opened list: in memory, dropped with it on lock.
  const [triage, setTriage] = useState<Triage>(NO_TRIAGE)

  const lock = useCallback(() => {
    loading.current?.abort()
    setTriage(NO_TRIAGE)
    setProgress(null)
    setIdentities(null)
    setInquiries(null)
    setSelected(null)
    setReturnedFrom(null)
    setAddingDevice(null)
    setStage((current) => (current === 'open' ? 'locked' : current))
  }, [])
  useAutoLock(stage === 'open', lock)

  /** The alert's inquiry, as soon as it is open (or, once all is open, never: it is gone). */
  const openLinked = useCallback((open: Inquiry[], all: boolean) => {
    const ref = linked.current
    const target = ref && open.find((inquiry) => inquiry.id.startsWith(ref))
    if (target) setSelected(target.id)
    if (target || all) linked.current = null
  }, [])

  /** The session ended without this page asking: back to the sign-in, saying why. */
  const ended = useCallback(
    (notice: string) => {
      lock()
      setEndedNotice(notice)
      setStage('signed-out')
    },
    [lock],
  )

  // A refresh Auth refused (the session was ended elsewhere) signs this tab out in auth-js.
  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event !== 'SIGNED_OUT' || signingOutHere) return
      // Another tab's own sign-out arrives here too: only this tab's missing session counts.
      void supabase.auth.getSession().then(({ data: current }) => {
        if (!current.session && !signingOutHere) ended(copy.signIn.sessionEnded)
      })
    })
    return () => data.subscription.unsubscribe()
  }, [ended])

  // A trusted device's other tab signed out (here or everywhere): its removal of the kept session
  // reaches this tab as a storage event, whether or not auth-js's broadcast does.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== SESSION_STORAGE_KEY || event.newValue !== null) return
      if (sessionStore.place() === 'device' && !signingOutHere) ended(copy.signIn.sessionEnded)
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [ended])

  // The period is checked again whenever the inbox comes back to the front.
  useEffect(() => {
    if (stage === 'loading' || stage === 'signed-out') return
    const check = () =>
      void endOutlivedSession().then((outlived) => {
        if (outlived) ended(copy.signIn.periodEnded(inboxEnv.trustedSessionDays))
      })
    window.addEventListener('focus', check)
    document.addEventListener('visibilitychange', check)
    return () => {
      window.removeEventListener('focus', check)
      document.removeEventListener('visibilitychange', check)
    }
  }, [stage, ended])

  const refresh = useCallback(
    async (keys: string[], notice?: string) => {
      setError(notice ?? null)
      loading.current?.abort()
      const controller = new AbortController()
      loading.current = controller
      const { signal } = controller
      const { InboxDataError, loadInquiries, loadResponseTimes } = await inboxData()
      // A refresh keeps the list on screen until the new one is wholly open.
      const previous = inquiriesNow.current ?? []
      try {
        const loaded = await loadInquiries(keys, {
          signal,
          previous,
          reference: linked.current ?? undefined,
          onProgress: (open) => {
            if (signal.aborted) return
            if (previous.length === 0) setInquiries(open.inquiries)
            setProgress({ opened: open.opened, total: open.total })
            openLinked(open.inquiries, false)
          },
        })
        if (signal.aborted) return
        setProgress(null)
        setInquiries(loaded.inquiries)
        setOfflineSince(loaded.offlineSince)
        openLinked(loaded.inquiries, true)
        // The summary is a nicety: without it (offline, say) the list still shows.
        setTimes(loaded.offlineSince ? null : await loadResponseTimes().catch(() => null))
      } catch (failure) {
        if (signal.aborted) return
        setProgress(null)
        const noAccess = failure instanceof InboxDataError && failure.kind === 'no-access'
        if (noAccess && (await sessionEnded())) return ended(copy.signIn.sessionEnded)
        setInquiries([])
        setOfflineSince(null)
        setError(noAccess ? copy.list.noAccess : copy.list.loadFailed)
      }
    },
    [openLinked, ended],
  )

  const refreshOpenList = useCallback(() => {
    if (identities) void refresh(identities)
  }, [identities, refresh])
  const pullArmed = usePullToRefresh(stage === 'open', refreshOpenList)

  useEffect(() => {
    if (stage !== 'open' || !identities) return
    // While the list is still opening (2,000 rows take seconds on a slow phone), coming back to
    // the window does not start it over ("Refresh" and a pull, asked for, do).
    const onFocus = () => {
      if (!progressNow.current) void refresh(identities)
    }
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [stage, identities, refresh])

  /**
   * "Sign out" ends this session on the server and removes it from this tab or device;
   * "Sign out everywhere" ends every session of the account. The sealed list kept for reading
   * offline goes with it. The key stays, encrypted ("Remove the key" removes it).
   */
  async function signOut(scope: 'local' | 'global') {
    lock()
    setEndedNotice(undefined)
    const [{ forgetSealedList }] = await Promise.all([
      import('../features/inquiries/list-cache'),
      signOutHere(scope),
    ])
    await forgetSealedList()
    setStage('signed-out')
  }

  // The first screen, prerendered into index.html at build time (first-screen.tsx) and hydrated:
  // while the session is read ('loading'), it is the sign-in screen, as every visit without a
  // session sees it. The agency's name from the first screen on, so staff know where they are.
  const signedOut = stage === 'signed-out' || stage === 'loading'
  const header = (
    <header className="bar">
      <span>{copy.title(inboxEnv.agencyName)}</span>
      {stage === 'open' && (
        <button type="button" onClick={lock}>
          {copy.lock}
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
        {signedOut && (
          <SignInForm
            notice={endedNotice}
            ready={stage === 'signed-out'}
            onSignedIn={() => {
              setEndedNotice(undefined)
              void stageOfSession().then(setStage)
            }}
          />
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
        {stage === 'open' && addingDevice !== null && identities && (
          <Suspense fallback={null}>
            <AddDevice
              identities={identities}
              code={addingDevice}
              onDone={() => setAddingDevice(null)}
            />
          </Suspense>
        )}
        {stage === 'open' && addingDevice === null && selectedInquiry && (
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
        {stage === 'open' && addingDevice === null && !selectedInquiry && identities && (
          <Suspense fallback={null}>
            <PasskeyOffer identities={identities} />
          </Suspense>
        )}
        {stage === 'open' && addingDevice === null && !selectedInquiry && (
          <ListScreen
            inquiries={inquiries}
            times={times}
            pullArmed={pullArmed}
            error={error}
            offlineSince={offlineSince}
            progress={progress}
            triage={triage}
            onTriage={setTriage}
            returnedFrom={returnedFrom}
            onRefresh={refreshOpenList}
            onOpen={(inquiry) => setSelected(inquiry.id)}
          />
        )}
        {stage === 'open' && addingDevice === null && !selectedInquiry && (
          <p className="devices">
            <button type="button" className="link" onClick={() => setAddingDevice('')}>
              {copy.devices.add}
            </button>
          </p>
        )}
      </main>
      {/* Signing out sits at the foot of the page, apart from "Lock" in the header. */}
      {(stage === 'second-factor' || stage === 'locked' || stage === 'open') && (
        <AccountPanel aal2={stage !== 'second-factor'} onSignOut={(scope) => void signOut(scope)} />
      )}
    </>
  )
}
