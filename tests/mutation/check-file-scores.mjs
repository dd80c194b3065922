// Fails `npm run test:mutation` when any mutated file scores under the bar (issue 12: at least 90 %
// of mutants killed on every file of the submission path). Stryker's own `thresholds.break` looks
// only at the total, where one well-tested file can hide a weak one.
//
// Reads Stryker's JSON report (or the file given as the first argument), leaves out the equivalent
// mutants listed in the config, each with its reason, and fails when an entry of that list names
// no surviving mutant or more than one mutant, so the list can neither go stale nor hide a gap.
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

/** Whether an entry of EQUIVALENT_MUTANTS names this mutant. */
function names(entry, file, source, mutant) {
  return (
    entry.file === file &&
    entry.mutator === mutant.mutatorName &&
    entry.replacement === mutant.replacement &&
    entry.line === source.split('\n')[mutant.location.start.line - 1].trim() &&
    (entry.original === undefined || entry.original === originalText(source, mutant.location))
  )
}

const matches = new Map(EQUIVALENT_MUTANTS.map((entry) => [entry, { all: 0, undetected: 0 }]))
const rows = []
const files = Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))
for (const [file, { source, mutants }] of files) {
  const row = { file, detected: 0, undetected: 0, equivalent: 0, survivors: [] }
  for (const mutant of mutants) {
    const listed = EQUIVALENT_MUTANTS.filter((entry) => names(entry, file, source, mutant))
    for (const entry of listed) matches.get(entry).all += 1
    if (listed.length > 0 && UNDETECTED.has(mutant.status)) {
      row.equivalent += 1
      for (const entry of listed) matches.get(entry).undetected += 1
    } else if (DETECTED.has(mutant.status)) {
      row.detected += 1
    } else if (UNDETECTED.has(mutant.status)) {
      row.undetected += 1
      const { line } = mutant.location.start
      const original = originalText(source, mutant.location)
      row.survivors.push(
        `  ${file}:${line} ${mutant.mutatorName} (${mutant.status}): ${original} -> ${mutant.replacement}`,
      )
    }
  }
  const valid = row.detected + row.undetected
  rows.push({ ...row, score: valid === 0 ? 100 : (100 * row.detected) / valid })
}

console.log(
  `\nMutation score per file (bar: ${FILE_THRESHOLD} %; equivalent mutants, listed with reasons in .config/stryker.config.mjs, left out)`,
)
for (const { file, score, detected, undetected, equivalent } of rows) {
  const mark = score >= FILE_THRESHOLD ? 'ok  ' : 'FAIL'
  console.log(
    `${mark} ${score.toFixed(2).padStart(6)} %  ${file}  (caught ${detected}, missed ${undetected}, equivalent ${equivalent})`,
  )
}

const failing = rows.filter(({ score }) => score < FILE_THRESHOLD)
for (const { file, survivors } of failing)
  console.log(`\nMissed in ${file}:\n${survivors.join('\n')}`)

const badEntries = [...matches].filter(([, { all, undetected }]) => undetected === 0 || all > 1)
for (const [entry, { all }] of badEntries) {
  const problem =
    all > 1
      ? `names ${all} mutants (add \`original\` to single one out)`
      : all === 1
        ? 'names a mutant the tests now kill (it was not equivalent: remove the entry)'
        : 'names no mutant (the code changed: update or remove the entry)'
  console.log(
    `\nEquivalent-mutant entry ${problem}: ${entry.file}: "${entry.line}" ${entry.mutator} -> ${entry.replacement}`,
  )
}
if (failing.length > 0 || badEntries.length > 0) process.exit(1)
