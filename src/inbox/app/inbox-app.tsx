import { lazy, Suspense, useEffect } from 'react'
import { AccountPanel } from '../features/auth/account-panel'
import { SecondFactor } from '../features/auth/second-factor'
import { useSession } from '../features/auth/session'
import { SignInForm } from '../features/auth/sign-in-form'
import { forgetSealedList } from '../features/inquiries/list-cache'
import { useUnlockedKey } from '../features/key/use-unlocked-key'
import { UpdateNotice } from '../features/update/update-notice'
import { copy } from '../content/copy'
import { inboxEnv } from '../lib/inbox-env'
import { BrandMark } from '../../shared/brand-mark'

// The key's code (age, scrypt) and what opens rows load after sign-in, never before.
const KeyGate = lazy(() =>
  import('../features/key/key-gate').then((module) => ({ default: module.KeyGate })),
)
const loadScreens = () => import('./unlocked-app')
const UnlockedApp = lazy(() => loadScreens().then((module) => ({ default: module.UnlockedApp })))

/** The address stays through signing in and unlocking, so an alert's link lands on its inquiry. */
export function InboxApp() {
  const session = useSession()
  const signedIn = session.stage === 'signed-in'
  const key = useUnlockedKey(signedIn)
  // Fetched while the key is typed or tapped, so the list follows the unlock at once.
  useEffect(() => {
    if (signedIn) void loadScreens()
  }, [signedIn])

  function signOut(scope: 'local' | 'global') {
    key.lock()
    // The sealed list kept for reading offline goes with the session; the key stays, encrypted.
    void forgetSealedList()
      .catch((failure: unknown) => console.error('inbox: forgetting the kept list failed', failure))
      .then(() => session.signOut(scope))
  }

  return (
    <>
      <header className="bar">
        <span className="brand">
          <BrandMark gradientId="inbox-mark-gradient" className="mark" />
          {copy.title(inboxEnv.agencyName)}
        </span>
        {key.unlocked && (
          <button type="button" onClick={key.lock}>
            {copy.lock}
          </button>
        )}
      </header>
      <main>
        <UpdateNotice />
        {session.stage === 'signed-out' && <SignInForm notice={session.notice} />}
        {session.stage === 'second-factor' && <SecondFactor />}
        <Suspense fallback={null}>
          {signedIn && !key.unlocked && <KeyGate onUnlocked={key.unlock} />}
          {key.unlocked && <UnlockedApp {...key.unlocked} onRefused={session.confirm} />}
        </Suspense>
      </main>
      {(session.stage === 'second-factor' || signedIn) && (
        <AccountPanel aal2={signedIn} onSignOut={signOut} />
      )}
    </>
  )
}
