# Sourced by tests/db/run-pgtap.sh (not run on its own). Brings database "$1" of the cluster that
# PGHOST/PGPORT name to the state of a Supabase project with every migration applied, the way
# Supabase gets there: as the cluster's superuser ($SUPERUSER), what a fresh project has
# (supabase/local/bootstrap.sql, which also creates the non-superuser `postgres` role), pgTAP in
# schema extensions (as `supabase test db` installs it) and, with "$2" = cron, pg_cron enabled as
# the dashboard enables it; then, as `postgres`, each migration in version order, recorded as the
# Supabase CLI records them. Run from the repository root; stops at the first error.

psql_as() {
  local user="$1" database="$2"
  shift 2
  PGOPTIONS='--client-min-messages=warning' psql -X -q -U "$user" -d "$database" -v ON_ERROR_STOP=1 "$@"
}

apply_schema() {
  local database="$1" with_cron="${2:-}" migration file
  psql_as "$SUPERUSER" "$database" --single-transaction -f supabase/local/bootstrap.sql >/dev/null
  psql_as "$SUPERUSER" "$database" >/dev/null <<SQL
    alter database "$database" owner to postgres;
    create extension if not exists pgtap with schema extensions;
SQL
  if [[ "$with_cron" == "cron" ]]; then
    # What Supabase's dashboard and init scripts do for postgres (supabase/postgres post-setup).
    psql_as "$SUPERUSER" "$database" >/dev/null <<'SQL'
      create extension if not exists pg_cron with schema pg_catalog;
      grant usage on schema cron to postgres with grant option;
      grant all on all tables in schema cron to postgres with grant option;
      grant all on all functions in schema cron to postgres with grant option;
SQL
  fi

  # File names start with a fixed-width UTC timestamp, so byte order is version order.
  mapfile -t APPLIED_MIGRATIONS < <(find supabase/migrations -maxdepth 1 -name '*.sql' -print | LC_ALL=C sort)
  for migration in "${APPLIED_MIGRATIONS[@]}"; do
    file="$(basename "$migration")"
    if [[ ! "$file" =~ ^([0-9]+)_(.*)\.sql$ ]]; then
      echo "Skipping $file: not named <version>_<name>.sql" >&2
      continue
    fi
    psql_as postgres "$database" --single-transaction -f "$migration" >/dev/null
    # Variables are interpolated only in psql's input, not in -c commands.
    psql_as postgres "$database" -v version="${BASH_REMATCH[1]}" -v name="${BASH_REMATCH[2]}" >/dev/null <<<"
      insert into supabase_migrations.schema_migrations (version, name) values (:'version', :'name');"
  done
}
