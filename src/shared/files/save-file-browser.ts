/**
 * Hands `file` to the browser as an ordinary download under `name`: an object URL on a link with
 * `download`, clicked, and revoked a minute later (the browser has copied it to disk by then).
 */
export function downloadBlob(file: Blob, name: string): void {
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
