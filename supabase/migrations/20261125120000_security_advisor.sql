-- Supabase's Security Advisor (issue 23): no ERROR and no WARN on this schema.
--
-- The dashboard's Advisors → Security Advisor runs Supabase's database linter (splinter) with the
-- API's exposed schemas (`public`, `graphql_public`). Before this migration it reported:
--   * ERROR security_definer_view, public.inbox_response_times: a view in the API's schema that
--     authenticated may read runs with its owner's rights. It returned nothing past a closed gate,
--     but a view whose safety rests on its WHERE clause is one edit away from a leak;
--   * WARN rls_policy_always_true, public.contact_submissions: the anon insert policy was
--     `with check (true)`, so everyone who opens the dashboard is told row level security is
--     bypassed for visitors (the checks lived in the column grant, constraints and triggers);
--   * WARN pg_graphql_authenticated_table_exposed (on a hosted project, where pg_graphql is
--     installed; not on plain PostgreSQL or PGlite): contact_submissions and the two inbox views,
--     because signed-in staff may select them, are described to any signed-in user by GraphQL.
-- Each section below removes one. Nothing here widens a grant or weakens a rule.
--
-- Runs on a hosted Supabase project, on plain PostgreSQL 15 (pgTAP) and on PGlite (the local
-- backend). supabase/tests/security_advisor.test.sql holds what the linter checks, so a later
-- migration that brings a finding back fails the suite.

-- ---------------------------------------------------------------- the anon insert policy

-- The policy now states what a visitor's row is: a new inquiry nobody has handled, stamped with its
-- arrival, holding no plaintext column. Today the column grant (id, sealed, key_id) already makes
-- every anon row so, so no request that was accepted is refused, and no refusal changes its answer.
-- It is a second, independent line: if a later grant lets anon name another column, a visitor
-- still cannot file a row as answered or closed (the purge deletes closed rows a day after
-- closing), backdate it (a backdated row is purged or alerted as overdue at once), mark it alerted
-- (the overdue alert would never come), or store plaintext beside the ciphertext.
--
-- What makes a sealed row valid stays with the constraints and the trigger: a well-formed armor
-- (400, contact_submissions_sealed_*), sealed-or-legacy (400), a key_id that is registered and
-- active (409), one row per request and the abuse limits (400/429). PostgreSQL checks the policy
-- before the check constraints, and a policy refusal is a nameless 42501, so repeating those rules
-- here would replace the named answers the form and the outbox act on.
alter policy contact_submissions_anon_insert
  on public.contact_submissions
  with check (
    status = 'new'
    and responded_at is null
    and completed_at is null
    and overdue_alerted_at is null
    -- The column default and this check read the same transaction timestamp.
    and created_at = now()
    and num_nulls(name, contact, project_type, budget, message, user_agent) = 6
  );

-- ---------------------------------------------------------------- the response-times view

-- The privileged part moves out of the API's schema, as the overdue view's did (staff sign-in
-- migration): a function in staff_access (not exposed, no USAGE for anon) reads the aggregates with
-- the owner's rights behind the same gate, and the view in public runs with its caller's rights,
-- so reading it needs EXECUTE on that function, which only authenticated and service_role have.
-- Same columns, same rows for everyone: staff past the gate see the figures, anyone else nothing.
create function staff_access.response_times()
  returns table (responded integer, p50 interval, p90 interval, within_24h numeric)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select t.responded, t.p50, t.p90, t.within_24h
    from private.response_times as t
   where staff_access.is_inbox_reader()
$$;

comment on function staff_access.response_times() is
  'private.response_times for staff signed in with a second factor; no row for anyone else.';

revoke all on function staff_access.response_times() from public;
-- service_role could read the view before (and got no row, having no token); it still can.
grant execute on function staff_access.response_times() to authenticated, service_role;

-- Replacing keeps the view's grants (select for authenticated and service_role, nothing for anon).
create or replace view public.inbox_response_times
  with (security_invoker = true)
as
  select * from staff_access.response_times();

comment on view public.inbox_response_times is
  'private.response_times for staff signed in with a second factor; empty for anyone else. Runs with the caller''s rights.';

-- ---------------------------------------------------------------- GraphQL

-- Nothing here uses GraphQL: the site, the inbox and the staff CLI speak to PostgREST only. A
-- hosted project has pg_graphql enabled, and it describes (names, columns, relations) every
-- relation a role may select to that role at /graphql/v1, so the Security Advisor warns for each
-- relation signed-in staff need. The linter's own remedy for a project that does not use GraphQL
-- is to disable the extension, which also takes an unused endpoint off the internet. Where it is
-- absent (plain PostgreSQL, PGlite) this does nothing. If the platform refuses, the migration goes
-- on and says so: then turn it off in the dashboard (Database → Extensions → pg_graphql).
do $graphql$
begin
  if exists (select from pg_catalog.pg_extension where extname = 'pg_graphql') then
    begin
      drop extension pg_graphql;
    exception
      when others then
        raise warning 'pg_graphql could not be disabled here (SQLSTATE %): disable it under Database → Extensions', sqlstate;
    end;
  end if;
end
$graphql$;

-- ---------------------------------------------------------------- left as INFO, on purpose
--
--   * rls_enabled_no_policy on every table in `private`: the API roles have no USAGE on the schema
--     and no grant on the tables; row level security with no policy is the second lock.
--   * no_primary_key on private.contact_rate_events and private.response_log: neither has a
--     natural key (two events or two answers may share a time and a bucket or a delay), and a
--     surrogate id would give content-free logs a running number they were built without.
--   * unused_index: counted since the last statistics reset; a fresh database has used none.
