/**
 * The agency's mark, drawn inline (no request), for the site's wordmark and the inbox's header.
 * `gradientId` must be unique in the page: the site draws the mark in its header and footer.
 */
export function BrandMark({ gradientId, className }: { gradientId: string; className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
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
        stroke={`url(#${gradientId})`}
        strokeWidth="2"
      />
      <path
        d="M9 10v7a7 7 0 0 0 14 0v-7"
        fill="none"
        stroke={`url(#${gradientId})`}
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  )
}
