import { describeError, terminal, UsageError } from './cli-io'
import { runStaff } from './staff-command'

runStaff(process.argv.slice(2), { env: process.env, output: terminal }).catch((error: unknown) => {
  terminal.err(describeError(error, [UsageError]))
  process.exitCode = 1
})
