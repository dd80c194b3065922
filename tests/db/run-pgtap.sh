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

# shellcheck source=tests/db/apply-schema.sh
source tests/db/apply-schema.sh
apply_schema "$database"
echo "Applied ${#APPLIED_MIGRATIONS[@]} migration(s) to $database."

PGOPTIONS='-c search_path=public,extensions' \
  pg_prove -d "$database" --ext .pg --ext .sql -r supabase/tests

# The same migrations and suite once more on a throwaway cluster that preloads pg_cron, as
# Supabase does: the jobs must be registered there (and the suite's pg_cron branch runs).
if [[ "${PGCRON_CHECK:-1}" != "0" ]]; then
  bash tests/db/run-pgcron-check.sh
fi
