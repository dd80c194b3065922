import { encodeQR } from '@paulmillr/qr'
import { useMemo } from 'react'

/** A QR code as inline SVG, made on the page: no network, no canvas, no `data:` address. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const modules = encodeQR(text, 'raw', { ecc: 'medium', border: 4 })
    const parts: string[] = []
    modules.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`)
      }),
    )
    return { size: modules.length, path: parts.join('') }
  }, [text])
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
