// @vitest-environment node
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { listMigrations } from './migrations'
import { splitSqlStatements } from './sql-statements'

describe('splitSqlStatements', () => {
  it('splits at top-level semicolons and drops empty statements', () => {
    expect(splitSqlStatements('select 1;\n\n select 2 ;;')).toEqual(['select 1', 'select 2'])
  })

  it('does not split inside quotes, identifiers, dollar quotes or comments', () => {
    const script = [
      `select 'a;b', E'it\\'s;', "odd;name" from t;`,
      `create function f() returns int language sql as $body$ select 1; $body$;`,
      `do $$ begin perform 1; end $$;`,
      `-- a comment; still a comment\nselect 3 /* block; /* nested; */ still */;`,
    ].join('\n')
    expect(splitSqlStatements(script)).toHaveLength(4)
  })

  it('keeps a statement with a positional parameter whole', () => {
    expect(splitSqlStatements('select $1; select a$b from t;')).toEqual([
      'select $1',
      'select a$b from t',
    ])
  })

  it('ignores a script that is only comments', () => {
    expect(splitSqlStatements('-- nothing here\n/* or here */')).toEqual([])
  })

  it('splits the project migrations into statements that each start with a SQL keyword', async () => {
    for (const migration of await listMigrations()) {
      const statements = splitSqlStatements(await readFile(migration.path, 'utf8'))
      expect(statements.length).toBeGreaterThan(0)
      for (const statement of statements) {
        const code = statement.replace(/^(\s*--[^\n]*\n)*/, '').trimStart()
        // A cut in the middle of a statement would leave one starting with a value or a bracket.
        expect(code, statement).toMatch(/^[a-z]+\s/i)
      }
    }
  })
})
