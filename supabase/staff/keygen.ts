import { parseArgs } from 'node:util'
import { describeError, pathFromUser, terminal, UsageError } from './cli-io'
import { generateKey, nextSteps } from './generate-key'
import { IdentityFileError } from './identity-file'

/**
 * `npm run keygen -- --out <file> [--label <text>]`: a new staff identity for sealed submissions.
 * `npm run -s keygen -- --out - | age -p > key.age` writes it straight into a passphrase-encrypted file.
 */

const USAGE =
  'Usage: npm run keygen -- --out <identity file> [--label <text>]\n' +
  '       npm run -s keygen -- --out - | age -p > key.age     (the secret never lies on disk unencrypted)'

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
  if (values.out === undefined || values.out === '') {
    throw new UsageError(`--out is required.\n${USAGE}`)
  }
  if (values.out === '-' && process.stdout.isTTY) {
    throw new UsageError(
      `Refusing to print a secret key to the terminal: pipe it into age -p.\n${USAGE}`,
    )
  }
  const label = values.label ?? `staff key ${new Date().toISOString().slice(0, 10)}`
  const key = await generateKey(pathFromUser(values.out))
  // With --out - standard output carries the key; the instructions go to the terminal on stderr.
  ;(values.out === '-' ? terminal.err : terminal.out)(nextSteps(key, label))
}

main(process.argv.slice(2)).catch((error: unknown) => {
  terminal.err(describeError(error, [UsageError, IdentityFileError]))
  process.exitCode = 1
})
