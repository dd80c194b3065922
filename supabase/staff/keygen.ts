import { parseArgs } from 'node:util'
import { describeError, pathFromUser, terminal, UsageError } from './cli-io'
import { generateKey, nextSteps } from './generate-key'
import { IdentityFileError } from './identity-file'

/** `npm run keygen -- --out <file> [--label <text>]`: a new staff identity for sealed submissions. */

const USAGE = 'Usage: npm run keygen -- --out <identity file> [--label <text>]'

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string', short: 'o' },
      label: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    terminal.out(USAGE)
    return
  }
  if (values.out === undefined || values.out === '' || values.out === '-') {
    throw new UsageError(`--out <file> is required (the secret is never printed). ${USAGE}`)
  }
  const label = values.label ?? `staff key ${new Date().toISOString().slice(0, 10)}`
  const key = await generateKey(pathFromUser(values.out))
  terminal.out(nextSteps(key, label))
}

main(process.argv.slice(2)).catch((error: unknown) => {
  terminal.err(describeError(error, [UsageError, IdentityFileError]))
  process.exitCode = 1
})
