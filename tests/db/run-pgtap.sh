#!/usr/bin/env bash
# Runs the pgTAP suite in supabase/tests on a real PostgreSQL 15, without Docker: the equivalent
# of `supabase test db`. Each run gets a throwaway database holding what a fresh Supabase project
# has (supabase/local/bootstrap.sql), then every migration in order; it is dropped on exit.
#
# Connection: the local cluster as superuser `postgres` on 127.0.0.1:5432 unless PGHOST, PGPORT or
# PGUSER say otherwise (the role must be able to create databases and roles).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

export PGHOST="${PGHOST:-127.0.0.1}"
export PGPORT="${PGPORT:-5432}"
export PGUSER="${PGUSER:-postgres}"
# The pgtap extension and the pg_prove runner, from Debian's packages.
packages=(postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl)

pgtap_installed() {
  command -v pg_prove >/dev/null 2>&1 &&
    [[ -f /usr/share/postgresql/15/extension/pgtap.control ]]
}

if ! pgtap_installed; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "pgTAP is missing: run 'sudo apt-get update && sudo apt-get install -y ${packages[*]}', then try again." >&2
    exit 1
  fi
  echo "Installing ${packages[*]}…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# Start the local cluster if it is down (only when it is the default local one).
if ! pg_isready -q -t 3; then
  if [[ "$PGHOST" == "127.0.0.1" && "$PGPORT" == "5432" ]] && command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "Starting PostgreSQL 15…"
    pg_ctlcluster 15 main start
    for _ in $(seq 1 30); do pg_isready -q -t 1 && break; sleep 1; done
  fi
  pg_isready -q -t 3 || { echo "PostgreSQL is not reachable at $PGHOST:$PGPORT." >&2; exit 1; }
fi

server_major="$(psql -X -At -d postgres -c 'show server_version_num' | cut -c1-2)"
if [[ "$server_major" != "15" ]]; then
  echo "Warning: the server is PostgreSQL $server_major; the suite targets 15 (supabase/config.toml)." >&2
fi

# Unique per run, so two runs (or a stale database from a killed run) never collide.
database="pgtap_$(date +%Y%m%d%H%M%S)_$$_${RANDOM}"

drop_database() {
  psql -X -q -d postgres -c "drop database if exists \"$database\" with (force)" >/dev/null 2>&1 || true
}
trap drop_database EXIT

psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "create database \"$database\""

run_sql_file() {
  PGOPTIONS='--client-min-messages=warning' \
    psql -X -q -d "$database" -v ON_ERROR_STOP=1 --single-transaction -f "$1" >/dev/null
}

run_sql_file supabase/local/bootstrap.sql
PGOPTIONS='--client-min-messages=warning' psql -X -q -d "$database" -v ON_ERROR_STOP=1 \
  -c 'create extension if not exists pgtap with schema extensions'

# Migrations in version order, recorded as the Supabase CLI records them.
# File names start with a fixed-width UTC timestamp, so byte order is version order.
mapfile -t migrations < <(find supabase/migrations -maxdepth 1 -name '*.sql' -print | LC_ALL=C sort)
for migration in "${migrations[@]}"; do
  file="$(basename "$migration")"
  if [[ ! "$file" =~ ^([0-9]+)_(.*)\.sql$ ]]; then
    echo "Skipping $file: not named <version>_<name>.sql" >&2
    continue
  fi
  run_sql_file "$migration"
  # Variables are interpolated only in psql's input, not in -c commands.
  psql -X -q -d "$database" -v ON_ERROR_STOP=1 \
    -v version="${BASH_REMATCH[1]}" -v name="${BASH_REMATCH[2]}" >/dev/null <<<"
    insert into supabase_migrations.schema_migrations (version, name) values (:'version', :'name');"
done
echo "Applied ${#migrations[@]} migration(s) to $database."

PGOPTIONS='-c search_path=public,extensions' \
  pg_prove -d "$database" --ext .pg --ext .sql -r supabase/tests
