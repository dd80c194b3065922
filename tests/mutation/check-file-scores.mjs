// Fails `npm run test:mutation` when any mutated file scores under the bar (issue 12: at least 90 %
// of mutants killed on every file of the submission path). Stryker's own `thresholds.break` looks
// only at the total, where one well-tested file can hide a weak one.
//
// Reads Stryker's JSON report; leaves out the equivalent mutants listed in the config (each with
// its reason) and fails when a listed one no longer matches a surviving mutant.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EQUIVALENT_MUTANTS, FILE_THRESHOLD, REPORT_DIR } from '../../.config/stryker.config.mjs'

/** Statuses Stryker counts: caught (killed, timed out) or not (survived, never reached). */
const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

const reportFile = process.argv[2] ?? join(REPORT_DIR, 'mutation.json')
const report = JSON.parse(readFileSync(reportFile, 'utf8'))

/** The source text a mutant replaced (locations are 1-based lines and columns). */
function originalText(source, { start, end }) {
  const lines = source.split('\n')
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1)
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n')
}

const unusedEquivalents = new Set(EQUIVALENT_MUTANTS)
const rows = []
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) =>
  a.localeCompare(b),
)) {
  let detected = 0
  let undetected = 0
  let equivalent = 0
  const survivors = []
  for (const mutant of mutants) {
    const original = originalText(source, mutant.location)
    const listed = EQUIVALENT_MUTANTS.find(
      (entry) =>
        entry.file === file &&
        entry.mutator === mutant.mutatorName &&
        entry.original === original &&
        entry.replacement === mutant.replacement,
    )
    if (listed && UNDETECTED.has(mutant.status)) {
      equivalent += 1
      unusedEquivalents.delete(listed)
    } else if (DETECTED.has(mutant.status)) {
      detected += 1
    } else if (UNDETECTED.has(mutant.status)) {
      undetected += 1
      survivors.push(
        `  ${file}:${mutant.location.start.line} ${mutant.mutatorName}: ${original} -> ${mutant.replacement}`,
      )
    }
  }
  const valid = detected + undetected
  const score = valid === 0 ? 100 : (100 * detected) / valid
  rows.push({ file, score, detected, undetected, equivalent, survivors })
}

console.log(
  `\nMutation score per file (bar: ${FILE_THRESHOLD} %; equivalent mutants listed in .config/stryker.config.mjs left out)`,
)
for (const { file, score, detected, undetected, equivalent } of rows) {
  const mark = score >= FILE_THRESHOLD ? 'ok  ' : 'FAIL'
  console.log(
    `${mark} ${score.toFixed(2).padStart(6)} %  ${file}  (caught ${detected}, missed ${undetected}, equivalent ${equivalent})`,
  )
}

const failing = rows.filter(({ score }) => score < FILE_THRESHOLD)
for (const { file, survivors } of failing) {
  console.log(`\nMissed in ${file}:`)
  console.log(survivors.join('\n'))
}
for (const entry of unusedEquivalents) {
  console.log(
    `\nListed as equivalent but not a surviving mutant (killed now, or the code changed): ${entry.file} ${entry.mutator}: ${entry.original} -> ${entry.replacement}`,
  )
}
if (failing.length > 0 || unusedEquivalents.size > 0) process.exit(1)
