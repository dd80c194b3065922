import { site } from '../content/site'

/**
 * The agency's name with its mark: drawn inline, so it costs no request. `place` names the
 * gradient, which must be unique in the page: the header and the footer both draw the mark.
 */
export function Wordmark({ place }: { place: 'header' | 'footer' }) {
  const gradient = `wordmark-gradient-${place}`
  return (
    <span className="flex items-center gap-2.5 font-display text-lg font-semibold tracking-tight text-text">
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#7ef0c0" />
            <stop offset="1" stopColor="#b3a6ff" />
          </linearGradient>
        </defs>
        <rect
          x="1"
          y="1"
          width="30"
          height="30"
          rx="9"
          fill="#0d1017"
          stroke={`url(#${gradient})`}
          strokeWidth="2"
        />
        <path
          d="M9 10v7a7 7 0 0 0 14 0v-7"
          fill="none"
          stroke={`url(#${gradient})`}
          strokeWidth="3"
          strokeLinecap="round"
        />
      </svg>
      {site.name}
    </span>
  )
}
