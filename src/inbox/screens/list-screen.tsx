import { useMemo, useState } from 'react'
import { ScreenHeading } from '../components/screen-heading'
import { copy } from '../content/copy'
import { formatInterval, formatTime } from '../features/inquiries/format'
import type { ResponseTimes } from '../features/inquiries/inbox-data'
import type { Inquiry } from '../features/inquiries/inquiry'
import { InquiryList } from '../features/inquiries/inquiry-list'
import { triageInquiries, type StatusFilter, type Triage } from '../features/inquiries/triage'

/** Rows rendered at a time: 2,000 rows on a phone's screen would be work nobody reads. */
export const ROWS_SHOWN = 50

const STATUS_FILTERS = ['all', 'new', 'responded', 'engaged', 'completed', 'declined'] as const

type ListScreenProps = {
  inquiries: Inquiry[] | null
  times: ResponseTimes | null
  /** Set while a pull down would refresh on release. */
  pullArmed: boolean
  error: string | null
  /** When the list shown is the one kept on this device, because the server could not be reached. */
  offlineSince: string | null
  /** While the list is being opened on the device: how far it has come. */
  progress: { opened: number; total: number | null } | null
  /** The inquiry last closed with "All inquiries": its row takes the focus back. */
  returnedFrom: string | null
  /** The search and filters: the app's memory only, kept while an inquiry is read, lock drops them. */
  triage: Triage
  onTriage: (triage: Triage) => void
  onRefresh: () => void
  onOpen: (inquiry: Inquiry) => void
}

/**
 * The opened inquiries, with the response-time summary, the search and filters (on the device:
 * see triage.ts), and what is wrong with the list, if anything.
 */
export function ListScreen(props: ListScreenProps) {
  const { inquiries, times, pullArmed, error, offlineSince, progress, returnedFrom } = props
  const { triage, onTriage, onRefresh, onOpen } = props
  const [shown, setShown] = useState(ROWS_SHOWN)
  const matching = useMemo(
    () => (inquiries ? triageInquiries(inquiries, triage) : []),
    [inquiries, triage],
  )
  // The row just read stays on screen, however far down it was.
  const returnedAt = returnedFrom ? matching.findIndex((i) => i.id === returnedFrom) + 1 : 0
  const visible = matching.slice(0, Math.max(shown, returnedAt))
  const change = (next: Partial<Triage>) => {
    onTriage({ ...triage, ...next })
    setShown(ROWS_SHOWN)
  }

  return (
    <section aria-labelledby="list-heading">
      <div className="bar">
        <ScreenHeading id="list-heading">{copy.list.heading}</ScreenHeading>
        <button type="button" onClick={onRefresh}>
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
      {pullArmed && <p className="pull">{copy.list.release}</p>}
      {error && <p role="alert">{error}</p>}
      {offlineSince && <p role="status">{copy.list.offline(formatTime(new Date(offlineSince)))}</p>}
      {/* No form: nothing to submit, so the query can never become an address or a request. */}
      <div className="triage" role="search">
        <label>
          {copy.list.search}
          <input
            type="search"
            value={triage.query}
            onChange={(event) => change({ query: event.target.value })}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="search-hint"
          />
        </label>
        <p id="search-hint" className="hint">
          {copy.list.searchHint}
        </p>
        <div className="filters">
          <label>
            {copy.list.statusFilter}
            <select
              value={triage.status}
              onChange={(event) => change({ status: event.target.value as StatusFilter })}
            >
              {STATUS_FILTERS.map((status) => (
                <option key={status} value={status}>
                  {status === 'all' ? copy.list.allStatuses : copy.statuses[status]}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={triage.overdueOnly}
              onChange={(event) => change({ overdueOnly: event.target.checked })}
            />
            {copy.list.overdueOnly}
          </label>
        </div>
      </div>
      <p aria-live="polite" className="hint" data-testid="list-count">
        {progress
          ? copy.list.opening(progress.opened, progress.total)
          : inquiries && copy.list.matching(matching.length, inquiries.length)}
      </p>
      {inquiries &&
        (inquiries.length === 0 && !progress ? (
          <p>{copy.list.empty}</p>
        ) : matching.length === 0 && !progress ? (
          <p>{copy.list.noMatch}</p>
        ) : (
          <InquiryList inquiries={visible} onOpen={onOpen} focusOn={returnedFrom} />
        ))}
      {matching.length > visible.length && (
        <button type="button" onClick={() => setShown(visible.length + ROWS_SHOWN)}>
          {copy.list.showMore(Math.min(ROWS_SHOWN, matching.length - visible.length))}
        </button>
      )}
    </section>
  )
}
