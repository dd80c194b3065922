// Whatever leaves the seal (a `wa.me` text, a `mailto:` subject and body) carries the greeting
// and the reference only: never the brief, the name, or anything else the visitor wrote.

export type Channel = 'email' | 'telegram' | 'whatsapp'

export type ContactChannel = { channel: Channel; href: string }

export type FirstMessage = { subject: string; body: string }

export function firstMessage(agencyName: string, reference: string): FirstMessage {
  return {
    subject: `Your secure inquiry ${reference}`,
    body: `Hello, this is ${agencyName}, answering your secure inquiry ${reference}.`,
  }
}

// RFC 6068: the address is percent-encoded, but for its "@", so an address with "?" or "&" in it
// cannot add headers (a cc, a body) to the link.
const mailAddress = (address: string) => address.split('@').map(encodeURIComponent).join('@')

/** The contact as a link to the visitor's channel, as they wrote it; null when it is none. */
export function contactChannel(contact: string): ContactChannel | null {
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contact)) {
    return { channel: 'email', href: `mailto:${mailAddress(contact)}` }
  }
  const telegram = /^@([A-Za-z0-9_]{5,32})$/.exec(contact)?.[1]
  if (telegram) return { channel: 'telegram', href: `https://t.me/${telegram}` }
  const phone = contact.replace(/[\s().-]/g, '')
  if (/^\+\d{7,15}$/.test(phone))
    return { channel: 'whatsapp', href: `https://wa.me/${phone.slice(1)}` }
  return null
}

/**
 * The link that answers on the visitor's channel with the first message. Telegram's
 * `t.me/<name>` takes none (its share link would ask whom to send to): `copyText` instead.
 */
export function answerLink(
  contact: string,
  message: FirstMessage,
): (ContactChannel & { copyText: string | null }) | null {
  const found = contactChannel(contact)
  if (!found) return null
  const query = (params: Record<string, string>) =>
    // mailto: wants %20 for spaces (URLSearchParams writes "+", which mail apps keep as "+").
    Object.entries(params)
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
      .join('&')
  switch (found.channel) {
    case 'email':
      return {
        ...found,
        href: `${found.href}?${query({ subject: message.subject, body: message.body })}`,
        copyText: null,
      }
    case 'whatsapp':
      return { ...found, href: `${found.href}?${query({ text: message.body })}`, copyText: null }
    case 'telegram':
      return { ...found, copyText: message.body }
  }
}
