import { describe, expect, it } from 'vitest'
import { answerLink, contactChannel, firstMessage } from './channel-links'

const MESSAGE = firstMessage('Umbra Growth', '1a2b3c4d')

/** Every value a link's query carries, decoded. */
const queryValues = (href: string) => {
  const query = href.split('?')[1] ?? ''
  return query === '' ? [] : query.split('&').map((pair) => decodeURIComponent(pair.split('=')[1]!))
}

describe('firstMessage', () => {
  it('is a greeting that quotes the reference', () => {
    expect(MESSAGE).toEqual({
      subject: 'Your secure inquiry 1a2b3c4d',
      body: 'Hello, this is Umbra Growth, answering your secure inquiry 1a2b3c4d.',
    })
  })
})

describe('answerLink', () => {
  it('mails the address with the reference in the subject and the greeting as the body, and nothing else', () => {
    const link = answerLink('ada@example.com', MESSAGE)
    expect(link).toEqual({
      channel: 'email',
      href: 'mailto:ada@example.com?subject=Your%20secure%20inquiry%201a2b3c4d&body=Hello%2C%20this%20is%20Umbra%20Growth%2C%20answering%20your%20secure%20inquiry%201a2b3c4d.',
      copyText: null,
    })
    expect(queryValues(link!.href)).toEqual([MESSAGE.subject, MESSAGE.body])
  })

  it('opens WhatsApp at the number with the greeting as the text, and nothing else', () => {
    const link = answerLink('+44 (7700) 900-123', MESSAGE)
    expect(link?.channel).toBe('whatsapp')
    expect(link?.href).toBe(`https://wa.me/447700900123?text=${encodeURIComponent(MESSAGE.body)}`)
    expect(queryValues(link!.href)).toEqual([MESSAGE.body])
  })

  it('opens Telegram at the username with no text, and offers the greeting to copy', () => {
    expect(answerLink('@ada_lovelace', MESSAGE)).toEqual({
      channel: 'telegram',
      href: 'https://t.me/ada_lovelace',
      copyText: MESSAGE.body,
    })
  })

  it('gives no link for a contact that is no channel (an alias, a name)', () => {
    expect(answerLink('Night Owl', MESSAGE)).toBeNull()
    expect(answerLink('@abc', MESSAGE)).toBeNull()
    expect(answerLink('+12', MESSAGE)).toBeNull()
  })

  it('cannot be made to carry more: an address with "?" or "&" stays one address', () => {
    const link = answerLink('x?cc=evil@example.com&body=hi', MESSAGE)
    expect(link?.href.startsWith('mailto:x%3Fcc%3Devil@example.com%26body%3Dhi?subject=')).toBe(
      true,
    )
    expect(queryValues(link!.href)).toEqual([MESSAGE.subject, MESSAGE.body])
  })
})

describe('contactChannel', () => {
  it('is the contact as its own link, as the inquiry shows it', () => {
    expect(contactChannel('reader@example.com')).toEqual({
      channel: 'email',
      href: 'mailto:reader@example.com',
    })
    expect(contactChannel('@axe_reader')?.href).toBe('https://t.me/axe_reader')
  })
})
