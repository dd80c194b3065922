/**
 * Copy of the privacy page (/privacy): what the Secure Contact form protects, what it cannot, how
 * long inquiries are kept and what a visitor can do about the rest. Every sentence here describes
 * a mechanism the site or the database runs; change them together.
 */

import type { CallToAction } from './types'

export type PrivacySection = {
  id: string
  heading: string
  paragraphs: readonly string[]
  points?: readonly string[]
}

export const privacyIntro = {
  heading: 'Privacy, without the fine print',
  lead: 'What our Secure Contact form encrypts, what no encryption can hide, how long we keep an inquiry, and how to reach us leaving even less behind.',
} as const satisfies { heading: string; lead: string }

export const privacySections = [
  {
    id: 'sealed',
    heading: 'What is encrypted, and where',
    paragraphs: [
      "When you press Send, your browser puts the whole inquiry into one document and seals it with age, an open encryption format (X25519 keys), to our team's public key. Sealing happens on your device, before anything is sent or queued.",
      "From then on only the sealed copy exists outside the form: in your browser's storage while it waits for a connection (removed once delivered), on the wire, and in our database, which refuses anything that is not sealed to a key we registered. The matching private key never touches the website or the database: our team opens inquiries on their own devices.",
    ],
    points: [
      "Sealed: your name or alias, your contact handle, the project type, the budget range, your brief, your browser's identification string, and the time you pressed Send.",
      'Padded: random filler brings every inquiry to a multiple of 1 KiB before sealing, so its size says little about what you wrote.',
      'Checkable: the key fingerprint shown on this page and under the form is computed from the keys your browser seals to. Compare it with the one we publish away from this website, which whoever runs our web host cannot change: the pinned post of our Telegram channel, and a DNS TXT record of our domain (see “Our key” below).',
    ],
  },
  {
    id: 'not-hidden',
    heading: 'What encryption cannot hide',
    paragraphs: ['Encryption hides what you wrote. It does not hide that you wrote.'],
    points: [
      'That someone sent an inquiry, and when: our database records the time it arrived.',
      'Roughly how long it is, in steps of 1 KiB (about a thousand characters of plain text).',
      "Network metadata: our web host, and Supabase (which runs our database behind Cloudflare), see your IP address, your browser's identification and the time of each request, and keep their logs for as long as their plans set.",
      'Telegram learns that, and when, an inquiry arrived: each new inquiry sends our team a Telegram alert with a short reference number and nothing of what you wrote (and a reminder if it is still unanswered after 20 hours).',
    ],
  },
  {
    id: 'trust',
    heading: 'What it relies on',
    paragraphs: [
      'Encryption in a web page is only as trustworthy as the code the page runs. Your browser seals with the code this site serves: no third-party scripts, and a strict content security policy that forbids loading any. If our site were ever tampered with, altered code could read what you type before it is sealed. If that risk matters to you, use one of the options below.',
    ],
  },
  {
    id: 'replies',
    heading: 'Replies, and your receipt',
    paragraphs: [
      "When you send an inquiry, your browser makes a receipt: twelve words from a published list, never chosen by you and never sent anywhere. From it, your browser derives a key that opens our replies, and a mailbox number our database knows only by its hash. Our replies on the replies page are sealed to that key and to ours, in your browser and in our team's; so are the messages you write back.",
    ],
    points: [
      'Whoever holds the receipt reads and writes the conversation. It is shown once; it stays on your device only if you tick "Keep it on this device".',
      'Lost means lost: nobody, us included, can recover it or open the replies without it.',
      'No forward secrecy: a receipt found later opens every message of the conversation, past and future.',
      'Replies we send by Telegram, WhatsApp or email are outside the seal.',
      "The site's code is trusted, as it is for the form: altered code could read the receipt as you type it.",
      'Our database sees that a conversation exists, when messages arrive and roughly how long they are, never what they say.',
    ],
  },
  {
    id: 'retention',
    heading: 'How long we keep it',
    paragraphs: [
      'Deletion is done by the database itself, on a schedule, not by someone remembering to.',
    ],
    points: [
      'When a project is completed or an inquiry does not go ahead, it is deleted from our live database within 24 hours.',
      'No inquiry is kept longer than 90 days, whatever its state.',
      "Backups at Supabase expire on the plan's schedule: daily backups are kept 7 days on the Pro plan, and point-in-time recovery keeps 7 to 28 days. Because your inquiry was sealed in your browser, those copies contain only ciphertext.",
      'Our database keeps no IP address. To stop floods, it counts submissions per network with a keyed hash of your network prefix and the day, and discards those counts within 24 hours.',
    ],
  },
  {
    id: 'your-options',
    heading: 'What you can do',
    paragraphs: ['You decide how much of yourself to bring.'],
    points: [
      'Use an alias, and a contact handle made for the purpose: a fresh email address or a Telegram username that leads nowhere else.',
      'Write to us on Telegram (a Secret Chat is end-to-end encrypted) or WhatsApp (end-to-end encrypted by default) instead of the form.',
      'Keep the brief general at first. Details can follow once we have talked.',
      'A VPN or Tor Browser keeps your IP address from our host and from Supabase.',
    ],
  },
] as const satisfies readonly PrivacySection[]

export const privacyKey = {
  heading: 'Our key',
  body: 'The public key your browser seals to. Anyone may see it; only the private key that matches it can open what it sealed.',
  howToCheck: (dnsName: string) =>
    `To check it: read the four groups of the fingerprint below, then compare them with the pinned post of our Telegram channel, and with the DNS record (on a computer: dig TXT ${dnsName}, or any online DNS lookup). All three must match. If they do not, do not send: tell us on Telegram.`,
} as const satisfies { heading: string; body: string; howToCheck: (dnsName: string) => string }

export const privacyBuild = {
  heading: 'The code you are running',
  body: "/build-manifest.json lists every file this site serves with its SHA-256; the start of that list's own SHA-256 is the build id. Our Telegram channel's pinned post gives each release's id.",
  buildId: 'Build id',
  reading: 'Reading…',
  unreadable: 'Not readable offline.',
  howToVerify: (siteUrl: string) =>
    `To check it: take our source at the commit the manifest names, run npm install, then npm run verify -- ${siteUrl}. It rebuilds the site and prints every file or header that differs.`,
} as const satisfies {
  heading: string
  body: string
  buildId: string
  reading: string
  unreadable: string
  howToVerify: (siteUrl: string) => string
}

export const privacyCallToAction = {
  heading: 'Reach us your way',
  body: 'Choose the channel that fits what you need to say.',
  actions: [
    { label: 'Message on Telegram', target: { kind: 'telegram' } },
    { label: 'Message on WhatsApp', target: { kind: 'whatsapp' } },
    { label: 'Send Secure Brief', target: { kind: 'page', to: '/contact' } },
  ],
} as const satisfies CallToAction
