import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * The one reviewed list of the answers in which the real PostgREST 12.0.2 (the contract suites'
 * oracle) may differ from the stand-in, which emulates PostgREST v14 as Supabase runs it:
 * real-postgrest-differences.json, each entry with its reason. A contract test states the
 * stand-in's answer; on the oracle it expects that answer with the listed entry applied, so any
 * other difference fails, and so does an entry no test used (tests only; tests read it).
 */

export const DIFFERENCES_FILE = fileURLToPath(
  new URL('./real-postgrest-differences.json', import.meta.url),
)

/** What a contract test compares: the status, the body (parsed JSON, or the text) and some headers. */
export type Answer = {
  status: number
  body: unknown
  /** Header → value, or null for a header that must be absent. */
  headers?: Record<string, string | null>
}

type Difference = {
  /** Why the real PostgREST 12.0.2 answers otherwise, and why that is not a stand-in bug. */
  why: string
  /** What the real PostgREST 12.0.2 answers instead: status and body replaced, headers merged. */
  postgrest12: Partial<Answer>
}

function readDifferences(): Record<string, Difference> {
  const file = JSON.parse(readFileSync(DIFFERENCES_FILE, 'utf8')) as {
    differences: Record<string, Difference>
  }
  for (const [id, entry] of Object.entries(file.differences)) {
    if (!entry.why?.trim() || typeof entry.postgrest12 !== 'object')
      throw new Error(`${DIFFERENCES_FILE}: "${id}" needs a "why" and a "postgrest12" answer`)
  }
  return file.differences
}

/** The response as an Answer: its status, its body, and the named headers (null when absent). */
export async function answerOf(response: Response, headers: string[] = []): Promise<Answer> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = text === '' ? '' : JSON.parse(text)
  } catch {
    // Not JSON: compared as text.
  }
  const answer: Answer = { status: response.status, body }
  if (headers.length)
    answer.headers = Object.fromEntries(headers.map((name) => [name, response.headers.get(name)]))
  return answer
}

export type ExpectedAnswers = {
  /** The answer the backend must give: the stand-in's, or on the oracle with entry `id` applied. */
  (id: string, standIn: Answer): Answer
  /** Entries of the list, among those whose id starts with `prefix`, that no test asked for. */
  unused(prefix: string): string[]
}

/** For the stand-in: its own answers. For the oracle: the stand-in's with the listed differences. */
export function expectedAnswers(oracle: boolean): ExpectedAnswers {
  const differences = oracle ? readDifferences() : {}
  const used = new Set<string>()
  const expected = (id: string, standIn: Answer): Answer => {
    const difference = differences[id]
    if (!difference) return standIn
    used.add(id)
    const { status, body, headers } = difference.postgrest12
    return {
      status: status ?? standIn.status,
      body: body === undefined ? standIn.body : body,
      ...(standIn.headers || headers ? { headers: { ...standIn.headers, ...headers } } : {}),
    }
  }
  expected.unused = (prefix: string) =>
    Object.keys(differences).filter((id) => id.startsWith(prefix) && !used.has(id))
  return expected
}
