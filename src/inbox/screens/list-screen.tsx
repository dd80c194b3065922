import { ScreenHeading } from '../components/screen-heading'
import { copy } from '../content/copy'
import { formatInterval, formatTime } from '../features/inquiries/format'
import type { ResponseTimes } from '../features/inquiries/inbox-data'
import type { Inquiry } from '../features/inquiries/inquiry'
import { InquiryList } from '../features/inquiries/inquiry-list'

type ListScreenProps = {
  inquiries: Inquiry[] | null
  times: ResponseTimes | null
  /** Set while a pull down would refresh on release. */
  pullArmed: boolean
  error: string | null
  /** When the list shown is the one kept on this device, because the server could not be reached. */
  offlineSince: string | null
  /** The inquiry last closed with "All inquiries": its row takes the focus back. */
  returnedFrom: string | null
  onRefresh: () => void
  onOpen: (inquiry: Inquiry) => void
}

/** The opened inquiries, with the response-time summary and what is wrong with the list, if anything. */
export function ListScreen(props: ListScreenProps) {
  const { inquiries, times, pullArmed, error, offlineSince, returnedFrom, onRefresh, onOpen } =
    props
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
      {inquiries && <InquiryList inquiries={inquiries} onOpen={onOpen} focusOn={returnedFrom} />}
    </section>
  )
}
