import { describeError, terminal, UsageError } from './cli-io'
import { IdentityFileError } from './identity-file'
import { runInbox } from './inbox-command'
import { OpenSealedError } from './open-sealed'

runInbox(process.argv.slice(2), { env: process.env, output: terminal }).catch((error: unknown) => {
  terminal.err(describeError(error, [UsageError, IdentityFileError, OpenSealedError]))
  process.exitCode = 1
})
