import { useCallback, useEffect, useRef, useState } from 'react'
import { copy } from '../../content/copy'
import { inboxEnv } from '../../lib/inbox-env'
import { SESSION_STORAGE_KEY } from '../../lib/session-storage'
import { sessionStore, supabase } from '../../lib/supabase-client'
import { sessionOutlived } from './trusted-session'

/** The one module of the inbox that talks to Supabase Auth. */

export type Stage = 'loading' | 'signed-out' | 'second-factor' | 'signed-in'
export type SessionState = { stage: Stage; notice?: string }

/**
 * This tab's own session: another tab's auth event carries that tab's session, not ours. The
 * period is checked on opening and on coming back to the front, not on every other tab's event
 * (two tabs ending one session at once would have the second refused).
 */
async function stageOfSession(period: boolean): Promise<Stage | 'outlived'> {
  const { data } = await supabase.auth.getSession()
  if (!data.session) return 'signed-out'
  if (period && sessionOutlived(data.session.access_token, inboxEnv.trustedSessionDays))
    return 'outlived'
  const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel()
  return level.data?.currentLevel === 'aal2' ? 'signed-in' : 'second-factor'
}

/**
 * Where the session stands, following Supabase's own pattern: one `onAuthStateChange`
 * subscription, plus what auth-js does not hear by itself: a trusted device's other tab removing
 * the kept session (a storage event), and the agency's period, checked whenever the inbox comes
 * back to the front. A session that ends without this page asking is said so on the sign-in.
 */
export function useSession() {
  const [state, setState] = useState<SessionState>({ stage: 'loading' })
  // While this page signs itself out, its own SIGNED_OUT is no news; an answer read before or
  // during that (`epoch` moved on) is not applied after it.
  const leaving = useRef(false)
  const epoch = useRef(0)

  const leave = useCallback(
    async (scope: 'local' | 'global', notice?: string, afterwards?: () => Promise<void>) => {
      leaving.current = true
      epoch.current += 1
      try {
        await supabase.auth.signOut({ scope })
        await afterwards?.()
      } finally {
        leaving.current = false
        epoch.current += 1
      }
      setState({ stage: 'signed-out', notice })
    },
    [],
  )

  const settle = useCallback(
    async (period: boolean) => {
      const since = epoch.current
      const stage = await stageOfSession(period)
      if (leaving.current || since !== epoch.current) return
      if (stage === 'outlived')
        return leave('local', copy.signIn.periodEnded(inboxEnv.trustedSessionDays))
      setState((current) => {
        if (stage === current.stage) return current
        const unasked = stage === 'signed-out' && current.stage !== 'loading'
        return unasked ? { stage, notice: copy.signIn.sessionEnded } : { stage }
      })
    },
    [leave],
  )

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange(
      (event) => void settle(event === 'INITIAL_SESSION'),
    )
    const check = () => void settle(true)
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_STORAGE_KEY && event.newValue === null) check()
    }
    window.addEventListener('storage', onStorage)
    window.addEventListener('focus', check)
    document.addEventListener('visibilitychange', check)
    return () => {
      data.subscription.unsubscribe()
      window.removeEventListener('storage', onStorage)
      window.removeEventListener('focus', check)
      document.removeEventListener('visibilitychange', check)
    }
  }, [settle])

  /**
   * After the database refused this session: ended (signed out everywhere, a password changed
   * elsewhere, the account deleted), or only taken off the staff list? Auth tells them apart.
   */
  const confirm = useCallback(async () => {
    const { error } = await supabase.auth.getUser()
    if (error?.name === 'AuthSessionMissingError' || error?.status === 403) {
      epoch.current += 1
      setState({ stage: 'signed-out', notice: copy.signIn.sessionEnded })
    }
  }, [])

  /** "Sign out" ends this session on the server; "Sign out everywhere" every session. */
  const signOut = useCallback((scope: 'local' | 'global') => leave(scope), [leave])

  /** "Remove this device": sign out, then `forget` what the device keeps, then say it is done. */
  const removeDevice = useCallback(
    (forget: () => Promise<void>) => leave('local', copy.account.removed, forget),
    [leave],
  )

  return { ...state, confirm, signOut, removeDevice }
}

export type Refusal = 'refused' | 'too-many'

function refusal(what: string, error: { status?: number } | null): Refusal | null {
  if (!error) return null
  console.error(`inbox: ${what} failed`, error)
  return error.status === 429 ? 'too-many' : 'refused'
}

export async function signIn(email: string, password: string, keep: boolean) {
  sessionStore.choose(keep ? 'device' : 'tab')
  return refusal('sign-in', (await supabase.auth.signInWithPassword({ email, password })).error)
}

export type Factor =
  | { kind: 'verify'; factorId: string }
  | { kind: 'enrol'; factorId: string; qrCode: string; secret: string; uri: string }
  | { kind: 'failed' }

/** The verified TOTP factor, or a new enrolment (leftovers of an unfinished one would block it). */
export async function totpFactor(): Promise<Factor> {
  const { data, error } = await supabase.auth.mfa.listFactors()
  if (error) return { kind: 'failed' }
  const verified = data.totp[0]
  if (verified) return { kind: 'verify', factorId: verified.id }
  for (const factor of data.all.filter((found) => found.status === 'unverified'))
    await supabase.auth.mfa.unenroll({ factorId: factor.id })
  const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp' })
  if (enrolled.error) return { kind: 'failed' }
  const { id, totp } = enrolled.data
  return { kind: 'enrol', factorId: id, qrCode: totp.qr_code, secret: totp.secret, uri: totp.uri }
}

export async function verifyCode(factorId: string, code: string) {
  return refusal(
    'verification',
    (await supabase.auth.mfa.challengeAndVerify({ factorId, code })).error,
  )
}

/** Auth's refusal of a new password, by its code (null: changed). */
export async function changePassword(password: string): Promise<string | null> {
  const { error } = await supabase.auth.updateUser({ password })
  if (!error) return null
  console.error('inbox: password change failed', error)
  return error.code ?? 'failed'
}

/** The staff session's access token, for the uploads supabase-js does not make itself. */
export async function accessToken(): Promise<string | null> {
  const { data } = await supabase.auth.getSession()
  return data.session?.access_token ?? null
}
