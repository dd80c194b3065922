import { keySetId } from '../shared/submission/sealed-row.ts'
import { isAgeRecipient } from '../shared/crypto/recipients.ts'
import { SIGNING_KEY_HEX } from '../shared/crypto/signing-keys.ts'

/**
 * The one place that reads configuration. Everything else imports `siteEnv`.
 *
 * vite.config.ts parses the VITE_* variables (`.env` files) at build time and hands the pages the
 * result as `__SITE_ENV__`. Each has a documented default (see `.env.example`) so a fresh clone
 * builds and runs as-is; a value that is set but malformed fails the build loudly, naming it.
 */

export type SiteEnv = {
  agencyName: string
  /** Public origin of the deployed site, without a trailing slash: canonical and Open Graph URLs. */
  siteUrl: string
  telegramUrl: string
  whatsappUrl: string
  founderEmail: string
  supabaseUrl: string
  supabaseAnonKey: string
  /** Who submissions are sealed to; null when this build has no key (sealing then fails closed). */
  submissionKeys: SubmissionKeys | null
}

export type SubmissionKeys = {
  /** X25519 age recipients (`age1…`), in the order configured, without duplicates. */
  recipients: readonly [string, ...string[]]
  /** The recipient set's key_id (src/shared/submission/README.md), derived at build time. */
  keyId: string
  /**
   * The agency's public signing keys (src/shared/crypto/signing.ts), one per identity: a reply
   * signed by none of them is not shown as the agency's.
   */
  signingKeys: readonly string[]
  /** What the page shows and the agency publishes: a key set id over recipients and signing keys. */
  fingerprintId: string
}

type RawEnv = Record<string, string | boolean | undefined>

/** Local `supabase start` defaults: the address and public demo anon key of the local stand-in. */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321'
export const LOCAL_SUPABASE_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'

export const ENV_DEFAULTS = {
  VITE_AGENCY_NAME: 'Umbra Growth',
  VITE_SITE_URL: 'https://umbragrowth.example',
  VITE_TELEGRAM_URL: 'https://t.me/umbragrowth',
  VITE_WHATSAPP_URL: 'https://wa.me/447700900123',
  VITE_FOUNDER_EMAIL: 'founder@umbragrowth.example',
  VITE_SUPABASE_URL: LOCAL_SUPABASE_URL,
  VITE_SUPABASE_ANON_KEY: LOCAL_SUPABASE_ANON_KEY,
  // Comma-separated age recipients. Unset: the local development identity, and only while
  // VITE_SUPABASE_URL is local (vite.config.ts); a build for a hosted Supabase stops instead.
  VITE_SUBMISSION_RECIPIENTS: '',
  // Comma-separated public signing keys, as `npm run keygen` prints them beside each recipient.
  // Unset: the local development identity's, under the same condition as the recipients.
  VITE_AGENCY_SIGNING_KEYS: '',
} as const

type EnvName = keyof typeof ENV_DEFAULTS

export class EnvError extends Error {
  constructor(name: EnvName, problem: string) {
    super(`Invalid configuration: ${name} ${problem} (see .env.example)`)
    this.name = 'EnvError'
  }
}

function read(raw: RawEnv, name: EnvName): string {
  const value = raw[name]
  if (typeof value !== 'string' || value.trim() === '') return ENV_DEFAULTS[name]
  return value.trim()
}

function readUrl(raw: RawEnv, name: EnvName, protocols: string[]): string {
  const value = read(raw, name)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new EnvError(name, `must be an absolute URL, got "${value}"`)
  }
  if (!protocols.includes(url.protocol)) {
    throw new EnvError(name, `must use ${protocols.join(' or ')}, got "${value}"`)
  }
  return value.replace(/\/+$/, '')
}

function readEmail(raw: RawEnv, name: EnvName): string {
  const value = read(raw, name)
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
    throw new EnvError(name, `must be an email address, got "${value}"`)
  }
  return value
}

/**
 * The configured recipients, fully checked (bech32 checksum included), so a typo fails the build
 * here instead of every visitor's submission later. vite.config.ts calls it; the pages get the
 * parsed result (`__SITE_ENV__`), so the checksum code stays out of every page.
 */
export function parseSubmissionRecipients(raw: RawEnv): string[] {
  const name = 'VITE_SUBMISSION_RECIPIENTS'
  const entries = read(raw, name)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  for (const entry of entries) {
    if (!isAgeRecipient(entry)) {
      throw new EnvError(
        name,
        `must list X25519 age recipients (age1…, as age-keygen prints them), got "${entry}"`,
      )
    }
  }
  return [...new Set(entries)]
}

export function parseSigningKeys(raw: RawEnv): string[] {
  const name = 'VITE_AGENCY_SIGNING_KEYS'
  const entries = read(raw, name)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  for (const entry of entries) {
    if (!SIGNING_KEY_HEX.test(entry)) {
      throw new EnvError(
        name,
        `must list public signing keys (64 hex characters, as npm run keygen prints them), got "${entry}"`,
      )
    }
  }
  return [...new Set(entries)]
}

/**
 * The fingerprint's key set id: the recipients and the signing keys together, so a page whose
 * signing key was swapped shows another fingerprint than the one the agency published.
 */
export const fingerprintIdOf = (recipients: readonly string[], signingKeys: readonly string[]) =>
  keySetId([...recipients, ...signingKeys])

/**
 * The keys a build seals to and checks replies with: the checked recipients, their set's key_id,
 * the signing keys and the fingerprint over both; null for no recipients.
 */
export async function submissionKeysFor(
  recipients: readonly string[],
  signingKeys: readonly string[],
): Promise<SubmissionKeys | null> {
  const [first, ...rest] = recipients
  if (first === undefined) return null
  return {
    recipients: [first, ...rest],
    keyId: await keySetId(recipients),
    signingKeys,
    fingerprintId: await fingerprintIdOf(recipients, signingKeys),
  }
}

/** The local stand-in (or `supabase start`) rather than a hosted project. */
export function isLocalSupabaseUrl(supabaseUrl: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(supabaseUrl).hostname)
}

/**
 * A site that sends to a hosted Supabase must say who can read its submissions: no silent fallback
 * to the development key, whose identity sits unprotected on a developer's disk.
 */
export function assertRecipientsFor(
  supabaseUrl: string,
  recipients: readonly string[],
  signingKeys: readonly string[],
): void {
  if (recipients.length === 0 && !isLocalSupabaseUrl(supabaseUrl)) {
    throw new EnvError(
      'VITE_SUBMISSION_RECIPIENTS',
      `must be set when VITE_SUPABASE_URL is not local (${supabaseUrl}): the comma-separated age1… recipients submissions are sealed to (npm run keygen prints one)`,
    )
  }
  // Without them every reply would show as not from the agency.
  if (recipients.length > 0 && signingKeys.length === 0) {
    throw new EnvError(
      'VITE_AGENCY_SIGNING_KEYS',
      'must be set with VITE_SUBMISSION_RECIPIENTS: the public signing keys npm run keygen prints beside each recipient',
    )
  }
}

/** Everything but the keys, which vite.config.ts resolves (possibly to the development key). */
export type SiteSettings = Omit<SiteEnv, 'submissionKeys'>

export function parseSiteEnv(raw: RawEnv): SiteSettings {
  return {
    agencyName: read(raw, 'VITE_AGENCY_NAME'),
    siteUrl: readUrl(raw, 'VITE_SITE_URL', ['https:', 'http:']),
    telegramUrl: readUrl(raw, 'VITE_TELEGRAM_URL', ['https:']),
    whatsappUrl: readUrl(raw, 'VITE_WHATSAPP_URL', ['https:']),
    founderEmail: readEmail(raw, 'VITE_FOUNDER_EMAIL'),
    supabaseUrl: readUrl(raw, 'VITE_SUPABASE_URL', ['https:', 'http:']),
    supabaseAnonKey: read(raw, 'VITE_SUPABASE_ANON_KEY'),
  }
}

/**
 * The build replaces this with the configuration vite.config.ts has already checked, so pages ship
 * the values and not the checks: with it the parse below is dead
 * code and leaves the bundle.
 */
declare const __SITE_ENV__: SiteEnv | undefined

// Outside Vite (Playwright specs import the content modules to know what to expect) there is no
// `__SITE_ENV__` and `import.meta.env` is undefined: the defaults then apply, as for the build, and
// there are no keys (only the build resolves them).
export const siteEnv: SiteEnv =
  typeof __SITE_ENV__ === 'undefined'
    ? { ...parseSiteEnv((import.meta.env as RawEnv | undefined) ?? {}), submissionKeys: null }
    : __SITE_ENV__
