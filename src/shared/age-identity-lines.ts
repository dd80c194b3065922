import { identityToRecipient } from 'age-encryption'

/**
 * The one reader of age identity text (the format `age-keygen` writes, as `age -i` reads it), for
 * the staff commands and the inbox alike. It says what each line is; each caller words its own
 * problems, because a terminal and a paste field need different sentences.
 *
 *     # created: 2026-11-22T16:20:00Z
 *     # public key: age1…
 *     AGE-SECRET-KEY-1…
 */
export type IdentityLines = {
  /** The `AGE-SECRET-KEY-…` lines, in order, as typage's Decrypter takes them. */
  secrets: string[]
  /** 1-based numbers of `AGE-PLUGIN-…` lines (a YubiKey, say): neither caller can use plugins. */
  pluginLines: number[]
  /** 1-based numbers of lines that are neither blank, a comment, nor an identity. */
  otherLines: number[]
}

export function readIdentityLines(text: string): IdentityLines {
  const lines: IdentityLines = { secrets: [], pluginLines: [], otherLines: [] }
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('AGE-SECRET-KEY-')) lines.secrets.push(line)
    else if (line.startsWith('AGE-PLUGIN-')) lines.pluginLines.push(index + 1)
    else lines.otherLines.push(index + 1)
  }
  return lines
}

/** The public recipients (`age1…`) of the secrets, or null when one of them is malformed. */
export async function recipientsOf(secrets: readonly string[]): Promise<string[] | null> {
  try {
    return await Promise.all(secrets.map((secret) => identityToRecipient(secret)))
  } catch {
    return null
  }
}
