import { lazy, Suspense, useId, useState, type FormEvent } from 'react'
import { inputClasses } from '../../components/form-field'
import { useHydrated } from '../../lib/use-hydrated'
import { keptReceipt } from '../contact/kept-receipt'
import type { Conversation, OpenOutcome } from './open-conversation'
import type { FileDownloadOutcome } from '../../shared/files/download-file-browser'
import type { SealedAttachment } from '../../shared/submission/sealed-document'
import { formatWhen, repliesCopy as copy } from './replies-copy'
import type { FollowUpDependencies } from './send-follow-up'

const ConversationView = lazy(() =>
  import('./conversation-view').then((module) => ({ default: module.ConversationView })),
)

/**
 * What the reader needs: opening a receipt, what writing back needs once it is open, and fetching
 * and opening a reply's file.
 */
export type RepliesDependencies = {
  open: (text: string) => Promise<OpenOutcome>
  followUp: (conversation: Conversation) => FollowUpDependencies
  download: (file: SealedAttachment, conversation: Conversation) => Promise<FileDownloadOutcome>
}

/** The sentence for every way opening can fail. */
export function openProblem(outcome: Exclude<OpenOutcome, { kind: 'opened' }>): string {
  switch (outcome.kind) {
    case 'receipt-problem':
      return copy.problems[outcome.problem]
    case 'no-match':
      return copy.noMatch
    case 'limited':
      return copy.limited[outcome.scope](formatWhen(outcome.retryAt))
    case 'no-answer':
      return copy.noAnswer
    case 'busy':
      return copy.busy
    case 'failed':
      return copy.failed
  }
}

/**
 * "Receipt" and "Open": the first screen of /replies. Nothing heavy loads until "Open": the
 * crypto (BIP39, HKDF, age), the Supabase client and the conversation's view come then. The
 * receipt stays in this component's memory; it is never in the address, a request or a log.
 */
export function RepliesReader({ dependencies }: { dependencies: RepliesDependencies }) {
  const hydrated = useHydrated()
  const fieldId = useId()
  // A receipt the visitor chose to keep on this device fills the field until they type. Read after
  // hydration: the prerendered page has none.
  const [typed, setReceipt] = useState<string | null>(null)
  const receipt = typed ?? (hydrated ? (keptReceipt() ?? '') : '')

  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [conversation, setConversation] = useState<Conversation | null>(null)

  const open = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (receipt.trim() === '') {
      setProblem(copy.problems.empty)
      return
    }
    setBusy(true)
    setProblem(null)
    let outcome: OpenOutcome
    try {
      outcome = await dependencies.open(receipt)
    } catch (error) {
      console.error('The conversation could not be opened:', error)
      setProblem(copy.unavailable)
      return
    } finally {
      setBusy(false)
    }
    if (outcome.kind === 'opened') {
      setConversation(outcome.conversation)
      setReceipt('')
      return
    }
    if (outcome.kind === 'no-answer' || outcome.kind === 'busy' || outcome.kind === 'failed') {
      console.error('The conversation could not be opened:', outcome.detail)
    }
    setProblem(openProblem(outcome))
  }

  if (conversation) {
    return (
      <Suspense fallback={null}>
        <ConversationView
          conversation={conversation}
          dependencies={dependencies.followUp(conversation)}
          download={(file) => dependencies.download(file, conversation)}
        />
      </Suspense>
    )
  }

  const problemId = `${fieldId}-problem`
  return (
    <form noValidate onSubmit={(event) => void open(event)}>
      <div className="grid gap-3">
        <label htmlFor={fieldId} className="text-sm font-medium text-text">
          {copy.receiptLabel}
        </label>
        <p id={`${fieldId}-hint`} className="text-sm text-muted">
          {copy.receiptHint}
        </p>
        <textarea
          id={fieldId}
          value={receipt}
          onChange={(event) => setReceipt(event.target.value)}
          disabled={!hydrated}
          rows={3}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={problem !== null}
          aria-describedby={`${fieldId}-hint${problem ? ` ${problemId}` : ''}`}
          className={`${inputClasses} font-mono`}
        />
        <button
          type="submit"
          disabled={busy || !hydrated}
          className="inline-flex min-h-12 w-full items-center justify-center rounded-full bg-mint px-6 py-3 font-semibold text-on-accent hover:bg-mint-strong disabled:opacity-70 sm:w-auto"
        >
          {busy ? copy.opening : copy.open}
        </button>
        <p id={problemId} role="status" className="min-h-5 text-sm text-danger">
          {problem ?? ''}
        </p>
      </div>
    </form>
  )
}
