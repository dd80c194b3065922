import { site } from '../content/site'
import { BrandMark } from '../shared/brand-mark'

/** The agency's name with its mark; `place` keeps the mark's gradient id unique in the page. */
export function Wordmark({ place }: { place: 'header' | 'footer' }) {
  return (
    <span className="flex items-center gap-2.5 font-display text-lg font-semibold tracking-tight text-text">
      <BrandMark gradientId={`wordmark-gradient-${place}`} className="size-7" />
      {site.name}
    </span>
  )
}
