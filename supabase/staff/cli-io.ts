import { resolve } from 'node:path'

/** Where a command writes: the terminal in use, a buffer in tests. */
export type Output = { out(text: string): void; err(text: string): void }

export const terminal: Output = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}

/** A mistake the person at the keyboard can fix: printed as is, without a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/**
 * A path as the person typed it. `npm run` starts scripts in the repository root, so a relative
 * path is resolved against the directory npm was started in (INIT_CWD).
 */
export function pathFromUser(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return path === '-' ? path : resolve(env.INIT_CWD ?? process.cwd(), path)
}

type ErrorClass = abstract new (...args: never[]) => Error

/** One line for errors the person can act on (theirs, or bad arguments); a stack trace for bugs. */
export function describeError(error: unknown, known: readonly ErrorClass[]): string {
  if (known.some((kind) => error instanceof kind)) return (error as Error).message
  // node:util parseArgs reports unknown or malformed options with these codes.
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return (error as Error).message
  return String(error instanceof Error ? error.stack : error)
}
