#!/usr/bin/env bash
# Proves the staff jobs are scheduled where pg_cron exists (issue 9.2): on a throwaway PostgreSQL 15
# cluster that preloads Debian's postgresql-15-cron as Supabase preloads pg_cron, it applies what a
# fresh project has plus every migration, checks cron.job holds the purge, the overdue sweep and
# the history cleanup with their schedules and commands, and runs the pgTAP suite there too (its
# pg_cron branch runs only on such a server). The cluster lives in a private folder under /tmp,
# reachable only through a Unix socket in that folder (no TCP port, so nothing can collide with
# it), and is removed on exit. Called at the end of tests/db/run-pgtap.sh; runs in a few seconds.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

bindir="/usr/lib/postgresql/15/bin"
control="/usr/share/postgresql/15/extension/pg_cron.control"

if [[ ! -f "$control" ]]; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "pg_cron is missing: run 'sudo apt-get update && sudo apt-get install -y postgresql-15-cron', then try again (or PGCRON_CHECK=0 to skip)." >&2
    exit 1
  fi
  echo "Installing postgresql-15-cron…"
  # The package lists may be fresh already (the pgTAP install); update once only if they are not.
  if ! apt-cache show postgresql-15-cron >/dev/null 2>&1; then
    apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15-cron >/dev/null
fi

# PostgreSQL refuses to run as root: as root, the server runs as the postgres system user.
as_server_user() {
  if [[ "$(id -u)" -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

workdir="$(mktemp -d /tmp/pgcron-check.XXXXXX)"
[[ "$(id -u)" -eq 0 ]] && chown postgres: "$workdir"
datadir="$workdir/data"
port=5432 # only names the socket file inside $workdir
database=contact

teardown() {
  as_server_user "$bindir/pg_ctl" -D "$datadir" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap teardown EXIT

as_server_user "$bindir/initdb" -D "$datadir" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null
as_server_user "$bindir/pg_ctl" -D "$datadir" -l "$workdir/server.log" -w -t 30 \
  -o "-c listen_addresses='' -c unix_socket_directories='$workdir' -c port=$port" \
  -o "-c fsync=off -c shared_preload_libraries=pg_cron -c cron.database_name=$database" \
  -o "-c cron.use_background_workers=on" \
  start >/dev/null

export PGHOST="$workdir" PGPORT="$port" PGUSER=postgres
psql -X -q -d postgres -v ON_ERROR_STOP=1 -c "create database $database"

# shellcheck source=tests/db/apply-schema.sh
source tests/db/apply-schema.sh
apply_schema "$database"

# Plain assertions, so a failure names what differs.
expected="contact-overdue-alerts|*/15 * * * *|select private.alert_overdue_submissions()|contact|postgres|t
contact-purge|17 * * * *|select private.purge_contact_submissions()|contact|postgres|t
cron-history-cleanup|47 3 * * *|delete from cron.job_run_details where end_time < now() - interval '7 days'|contact|postgres|t"
actual="$(psql -X -At -d "$database" -v ON_ERROR_STOP=1 -c "
  select concat_ws('|', jobname, schedule, command, database, username, active)
    from cron.job order by jobname")"
if [[ "$actual" != "$expected" ]]; then
  echo "pg_cron jobs differ from what the migrations should register." >&2
  echo "expected:" >&2
  echo "$expected" >&2
  echo "actual:" >&2
  echo "$actual" >&2
  exit 1
fi
echo "pg_cron: ${#APPLIED_MIGRATIONS[@]} migration(s) applied; 3 jobs registered with the expected schedules and commands."

PGOPTIONS='-c search_path=public,extensions' \
  pg_prove -d "$database" --ext .pg --ext .sql -r supabase/tests
