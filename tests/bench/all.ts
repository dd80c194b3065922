/**
 * `npm run bench` after the build: every measurement in turn, each in its own process (a bench
 * starts its own backend, build and browser), even when an earlier one missed a target, so one
 * miss never hides the other figures. Prints which steps met their targets, and exits 1 if any
 * missed or failed to run.
 */
import { spawnSync } from 'node:child_process'

const STEPS = [
  'sealing',
  'lighthouse',
  'inbox',
  'inbox-scale',
  'passkey',
  'replies',
  'attachments',
  'inserts',
] as const

const outcomes: { step: string; met: boolean; seconds: number }[] = []
for (const step of STEPS) {
  const started = performance.now()
  console.log(`\n== bench: ${step}`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', `tests/bench/${step}.ts`], {
    stdio: 'inherit',
  })
  outcomes.push({
    step,
    met: run.status === 0,
    seconds: Math.round((performance.now() - started) / 1000),
  })
}
console.log('\n== bench: summary')
console.table(outcomes)
const missed = outcomes.filter((outcome) => !outcome.met).map((outcome) => outcome.step)
if (missed.length) {
  console.log(`Targets missed (or the step failed) in: ${missed.join(', ')}`)
  process.exitCode = 1
} else console.log('Every bench target met.')
