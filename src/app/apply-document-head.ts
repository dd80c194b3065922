import { pageMetaTags, type DocumentHead } from './document-head'

/**
 * Browser side of `document-head.ts`: after a client-side navigation, make the live <head> say what
 * the prerendered HTML of that address says. Touches `document`, so only the client imports it.
 */
export function applyDocumentHead(head: DocumentHead): void {
  document.title = head.title
  for (const { attribute, key, content } of pageMetaTags(head)) setMeta(attribute, key, content)

  let canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')
  if (head.canonical) {
    if (!canonical) {
      canonical = document.createElement('link')
      canonical.rel = 'canonical'
      document.head.append(canonical)
    }
    canonical.href = head.canonical
  } else {
    canonical?.remove()
  }
}

function setMeta(attribute: 'name' | 'property', key: string, content: string | null): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`)
  if (content === null) {
    element?.remove()
    return
  }
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attribute, key)
    document.head.append(element)
  }
  element.content = content
}
