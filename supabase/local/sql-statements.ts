/**
 * Splits a SQL script into statements at top-level semicolons, the way the Supabase CLI records a
 * migration's `statements` in supabase_migrations.schema_migrations. Quotes, dollar quotes and
 * comments are skipped over so a semicolon inside them does not split.
 *
 * Only used to record what was applied: the script itself runs whole, so a construct this
 * splitter does not know (such as `begin atomic … end` bodies) can at worst split a record.
 */
export function splitSqlStatements(script: string): string[] {
  const statements: string[] = []
  let start = 0
  let i = 0
  let hasCode = false

  const push = (end: number) => {
    const text = script.slice(start, end).trim()
    if (hasCode && text !== '') statements.push(text)
    hasCode = false
  }

  while (i < script.length) {
    const char = script[i]
    const next = script[i + 1]

    if (char === '-' && next === '-') {
      const newline = script.indexOf('\n', i)
      i = newline === -1 ? script.length : newline + 1
      continue
    }
    if (char === '/' && next === '*') {
      i = skipBlockComment(script, i)
      continue
    }

    hasCode ||= !/\s/.test(char ?? '')

    if (char === "'") {
      const escapes = /[eE]/.test(script[i - 1] ?? '') && !/[\w$]/.test(script[i - 2] ?? '')
      i = skipQuoted(script, i, "'", escapes)
    } else if (char === '"') {
      i = skipQuoted(script, i, '"', false)
    } else if (char === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/.exec(script.slice(i))
      // `$1` is a parameter and `a$b` part of an identifier, not a dollar quote.
      if (tag && !/[\w$]/.test(script[i - 1] ?? '')) {
        const close = script.indexOf(tag[0], i + tag[0].length)
        i = close === -1 ? script.length : close + tag[0].length
      } else {
        i += 1
      }
    } else if (char === ';') {
      push(i)
      i += 1
      start = i
    } else {
      i += 1
    }
  }
  push(script.length)
  return statements
}

function skipBlockComment(script: string, from: number): number {
  // Block comments nest in PostgreSQL.
  let depth = 0
  let i = from
  while (i < script.length) {
    if (script[i] === '/' && script[i + 1] === '*') {
      depth += 1
      i += 2
    } else if (script[i] === '*' && script[i + 1] === '/') {
      depth -= 1
      i += 2
      if (depth === 0) return i
    } else {
      i += 1
    }
  }
  return i
}

function skipQuoted(
  script: string,
  from: number,
  quote: string,
  backslashEscapes: boolean,
): number {
  let i = from + 1
  while (i < script.length) {
    const char = script[i]
    if (backslashEscapes && char === '\\') {
      i += 2
    } else if (char === quote) {
      // A doubled quote is an escaped quote, not the end.
      if (script[i + 1] === quote) i += 2
      else return i + 1
    } else {
      i += 1
    }
  }
  return i
}
