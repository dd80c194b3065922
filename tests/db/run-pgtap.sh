#!/usr/bin/env bash
# Runs the pgTAP suite in supabase/tests on PostgreSQL 15 the way Supabase runs it, without Docker:
# the equivalent of `supabase test db`. A throwaway cluster, private to this run, whose superuser
# is supabase_admin as on Supabase; migrations are applied and the suites run as `postgres`, which
# there is not a superuser (CREATEROLE, BYPASSRLS), so a suite or a migration that needs more than
# Supabase gives fails here. Two databases: one without pg_cron, and one where the server preloads
# it as Supabase does, where the three staff jobs must be registered (and the suites' pg_cron
# branch runs). The cluster lives in a folder under /tmp, reachable only through a Unix socket in
# that folder (no TCP port, so nothing can collide with it), and is removed on exit.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

bindir="/usr/lib/postgresql/15/bin"
# The pgtap extension and the pg_prove runner, and pg_cron, from Debian's packages.
packages=(postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl postgresql-15-cron)

installed() {
  command -v pg_prove >/dev/null 2>&1 &&
    [[ -f /usr/share/postgresql/15/extension/pgtap.control ]] &&
    [[ -f /usr/share/postgresql/15/extension/pg_cron.control ]]
}

if ! installed; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "pgTAP or pg_cron is missing: run 'sudo apt-get update && sudo apt-get install -y ${packages[*]}', then try again." >&2
    exit 1
  fi
  echo "Installing ${packages[*]}…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# PostgreSQL refuses to run as root: as root, the server runs as the postgres system user.
as_server_user() {
  if [[ "$(id -u)" -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

workdir="$(mktemp -d /tmp/pgtap.XXXXXX)"
[[ "$(id -u)" -eq 0 ]] && chown postgres: "$workdir"
datadir="$workdir/data"
port=5432 # only names the socket file inside $workdir
plain=contact
with_cron=contact_cron
export SUPERUSER=supabase_admin

teardown() {
  as_server_user "$bindir/pg_ctl" -D "$datadir" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap teardown EXIT

as_server_user "$bindir/initdb" -D "$datadir" -U "$SUPERUSER" --auth=trust -E UTF8 --no-sync >/dev/null
as_server_user "$bindir/pg_ctl" -D "$datadir" -l "$workdir/server.log" -w -t 30 \
  -o "-c listen_addresses='' -c unix_socket_directories='$workdir' -c port=$port" \
  -o "-c fsync=off -c shared_preload_libraries=pg_cron -c cron.database_name=$with_cron" \
  -o "-c cron.use_background_workers=on -c max_worker_processes=16" \
  start >/dev/null

export PGHOST="$workdir" PGPORT="$port"
psql -X -q -U "$SUPERUSER" -d postgres -v ON_ERROR_STOP=1 \
  -c "create database $plain" -c "create database $with_cron"

# shellcheck source=tests/db/apply-schema.sh
source tests/db/apply-schema.sh
apply_schema "$plain"
apply_schema "$with_cron" cron
echo "Applied ${#APPLIED_MIGRATIONS[@]} migration(s) as postgres ($(psql -X -At -U postgres -d "$plain" -c \
  "select case when rolsuper then 'a superuser' else 'not a superuser' end from pg_roles where rolname = current_user"))."

PGOPTIONS='-c search_path=public,extensions' \
  pg_prove -U postgres -d "$plain" --ext .pg --ext .sql -r supabase/tests

# Plain assertions, so a failure names what differs.
expected="contact-overdue-alerts|*/15 * * * *|select private.alert_overdue_submissions()|$with_cron|postgres|t
contact-purge|17 * * * *|select private.purge_contact_submissions()|$with_cron|postgres|t
cron-history-cleanup|47 3 * * *|delete from cron.job_run_details where end_time < now() - interval '7 days'|$with_cron|postgres|t"
actual="$(psql -X -At -U postgres -d "$with_cron" -v ON_ERROR_STOP=1 -c "
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
echo "pg_cron: 3 jobs registered by postgres with the expected schedules and commands."

PGOPTIONS='-c search_path=public,extensions' \
  pg_prove -U postgres -d "$with_cron" --ext .pg --ext .sql -r supabase/tests
