# Sourced by the database test scripts (not run on its own). Brings database "$1" on the server
# that PGHOST/PGPORT/PGUSER name to the state of a Supabase project with every migration applied:
# what a fresh project has (supabase/local/bootstrap.sql), pgTAP in schema extensions (as
# `supabase test db` installs it), then each migration in version order, recorded as the Supabase
# CLI records them. Run from the repository root; stops at the first error.

apply_sql_file() {
  local database="$1" file="$2"
  PGOPTIONS='--client-min-messages=warning' \
    psql -X -q -d "$database" -v ON_ERROR_STOP=1 --single-transaction -f "$file" >/dev/null
}

apply_schema() {
  local database="$1" migration file
  apply_sql_file "$database" supabase/local/bootstrap.sql
  PGOPTIONS='--client-min-messages=warning' psql -X -q -d "$database" -v ON_ERROR_STOP=1 \
    -c 'create extension if not exists pgtap with schema extensions'

  # File names start with a fixed-width UTC timestamp, so byte order is version order.
  mapfile -t APPLIED_MIGRATIONS < <(find supabase/migrations -maxdepth 1 -name '*.sql' -print | LC_ALL=C sort)
  for migration in "${APPLIED_MIGRATIONS[@]}"; do
    file="$(basename "$migration")"
    if [[ ! "$file" =~ ^([0-9]+)_(.*)\.sql$ ]]; then
      echo "Skipping $file: not named <version>_<name>.sql" >&2
      continue
    fi
    apply_sql_file "$database" "$migration"
    # Variables are interpolated only in psql's input, not in -c commands.
    psql -X -q -d "$database" -v ON_ERROR_STOP=1 \
      -v version="${BASH_REMATCH[1]}" -v name="${BASH_REMATCH[2]}" >/dev/null <<<"
      insert into supabase_migrations.schema_migrations (version, name) values (:'version', :'name');"
  done
}
