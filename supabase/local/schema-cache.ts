import type { Queryable } from './database'

/**
 * What PostgREST's schema cache holds that an insert needs: the tables and views of the exposed
 * schemas, their columns with SQL types (to build `json_to_recordset(...) as _(col type, …)`),
 * and primary keys (the default conflict target of an upsert). Read once at start, like
 * PostgREST; restart the stand-in after changing the schema by hand.
 */

export type TableInfo = {
  schema: string
  name: string
  /** Column name -> SQL type as format_type() prints it, in column order. */
  columns: Map<string, string>
  primaryKey: string[]
}

export type SchemaCache = {
  exposedSchemas: readonly string[]
  findTable(schema: string, name: string): TableInfo | undefined
}

/** The schemas Supabase exposes by default (config.toml [api].schemas). */
export const EXPOSED_SCHEMAS = ['public', 'graphql_public'] as const

type ColumnRow = {
  table_schema: string
  table_name: string
  column_name: string
  column_type: string
  is_primary_key: boolean
}

export async function loadSchemaCache(
  db: Queryable,
  exposedSchemas: readonly string[] = EXPOSED_SCHEMAS,
): Promise<SchemaCache> {
  const rows = await db.query<ColumnRow>(
    `select n.nspname as table_schema,
            c.relname as table_name,
            a.attname as column_name,
            format_type(a.atttypid, a.atttypmod) as column_type,
            coalesce(a.attnum = any (pk.conkey), false) as is_primary_key
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       left join pg_catalog.pg_constraint pk on pk.conrelid = c.oid and pk.contype = 'p'
      where n.nspname = any ($1::text[])
        and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by n.nspname, c.relname, a.attnum`,
    [[...exposedSchemas]],
  )

  const tables = new Map<string, TableInfo>()
  for (const row of rows) {
    const key = `${row.table_schema}.${row.table_name}`
    let table = tables.get(key)
    if (!table) {
      table = { schema: row.table_schema, name: row.table_name, columns: new Map(), primaryKey: [] }
      tables.set(key, table)
    }
    table.columns.set(row.column_name, row.column_type)
    if (row.is_primary_key) table.primaryKey.push(row.column_name)
  }

  return {
    exposedSchemas,
    findTable: (schema, name) => tables.get(`${schema}.${name}`),
  }
}
