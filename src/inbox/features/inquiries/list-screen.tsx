import { useMemo, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { ScreenHeading } from '../../components/screen-heading'
import { copy } from '../../content/copy'
import { formatInterval, formatTime } from './format'
import { InquiryList } from './inquiry-list'
import { triageInquiries, type StatusFilter, type Triage } from './triage'
import { usePullToRefresh } from './use-pull-to-refresh'
import type { InquiryList as List } from './use-inquiry-list'

/** Rows rendered at a time: 2,000 rows on a phone's screen would be work nobody reads. */
export const ROWS_SHOWN = 50

const STATUS_FILTERS = ['all', 'new', 'responded', 'engaged', 'completed', 'declined'] as const

/** The row just read takes the focus back, however far down it was. */
export type ListReturn = { from?: string }

export function ListScreen({
  list,
  notice,
  triage,
  onTriage,
}: {
  list: List
  notice?: string
  triage: Triage
  onTriage: (triage: Triage) => void
}) {
  const { inquiries, times, progress, offlineSince, problem } = list
  const navigate = useNavigate()
  const returnedFrom = (useLocation().state as ListReturn | null)?.from ?? null
  const [shown, setShown] = useState(ROWS_SHOWN)
  const pullArmed = usePullToRefresh(list.refresh)
  const matching = useMemo(
    () => (inquiries ? triageInquiries(inquiries, triage) : []),
    [inquiries, triage],
  )
  const returnedAt = returnedFrom ? matching.findIndex((i) => i.id === returnedFrom) + 1 : 0
  const visible = matching.slice(0, Math.max(shown, returnedAt))
  const change = (next: Partial<Triage>) => {
    onTriage({ ...triage, ...next })
    setShown(ROWS_SHOWN)
  }
  const error =
    problem === 'no-access' ? copy.list.noAccess : problem ? copy.list.loadFailed : notice

  return (
    <section aria-labelledby="list-heading">
      <div className="bar">
        <ScreenHeading id="list-heading">{copy.list.heading}</ScreenHeading>
        <button type="button" onClick={list.refresh}>
          {copy.list.refresh}
        </button>
      </div>
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
          <InquiryList
            inquiries={visible}
            onOpen={(inquiry) => navigate(`/inquiries/${inquiry.id}`)}
            focusOn={returnedFrom}
          />
        ))}
      {matching.length > visible.length && (
        <button type="button" onClick={() => setShown(visible.length + ROWS_SHOWN)}>
          {copy.list.showMore(Math.min(ROWS_SHOWN, matching.length - visible.length))}
        </button>
      )}
      {/* Below the rows: on a phone the first screen is for the inquiries. */}
      {times && times.responded + times.closed_unanswered > 0 && (
        <p className="times">
          {copy.list.times(
            times.responded,
            formatInterval(times.p50),
            formatInterval(times.p90),
            `${Math.round((times.within_24h ?? 0) * 100)}%`,
            times.closed_unanswered,
          )}
        </p>
      )}
    </section>
  )
}
