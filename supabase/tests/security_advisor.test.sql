-- What Supabase's Security Advisor (splinter) checks, held here because the linter itself
-- is not part of the project: each catalog query below lists what one lint would report on the
-- API's exposed schemas (supabase/config.toml: public, graphql_public), and must list nothing.
-- Then the anon insert policy's condition, proved as PostgREST runs a visitor's request (`set local
-- role anon`), with anon's column grant widened for this transaction only: the policy must hold on
-- its own, whatever a later grant lets a visitor name.
begin;

select plan(13);

\ir fixtures/sealed-row.psql

-- pgTAP lives in schema extensions; anon needs it only to run these assertions.
grant usage on schema extensions to anon;

-- ---------------------------------------------------------------- what the linter reads

-- rls_policy_always_true (WARN): a permissive policy for anon, authenticated or everyone whose
-- condition is literally true, or missing where it decides (an INSERT without WITH CHECK, an
-- UPDATE, DELETE or ALL without USING). Normalised as the linter does: lowercase, no whitespace.
select is_empty(
  $$ select format('%I.%I: %I', n.nspname, c.relname, p.polname)
       from pg_policy as p
       join pg_class as c on c.oid = p.polrelid
       join pg_namespace as n on n.oid = c.relnamespace
      where n.nspname in ('public', 'graphql_public')
        and p.polpermissive
        and (p.polroles = array[0::oid]
             or p.polroles && array['anon'::regrole::oid, 'authenticated'::regrole::oid])
        and (regexp_replace(lower(coalesce(pg_get_expr(p.polqual, p.polrelid), '')), '\s', '', 'g')
               in ('true', '(true)', '1=1', '(1=1)')
             or regexp_replace(lower(coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')), '\s', '', 'g')
               in ('true', '(true)', '1=1', '(1=1)')
             or (p.polcmd = 'a' and p.polwithcheck is null)
             or (p.polcmd in ('w', 'd', '*') and p.polqual is null)) $$,
  'no policy in the API''s schemas lets anon or authenticated through unconditionally'
);

-- auth_rls_initplan (WARN): a policy in an API schema that calls auth.uid(), auth.jwt(),
-- auth.role(), auth.email() or current_setting() for every row instead of once, through
-- `(select …)`. The linter's own test: the call appears, and not right after "select ".
select is_empty(
  $$ select format('%I.%I: %I', n.nspname, c.relname, p.polname)
       from pg_policy as p
       join pg_class as c on c.oid = p.polrelid
       join pg_namespace as n on n.oid = c.relnamespace
       cross join lateral (values (pg_get_expr(p.polqual, p.polrelid)),
                                  (pg_get_expr(p.polwithcheck, p.polrelid))) as e(expr)
       cross join lateral (values ('auth.uid()'), ('auth.jwt()'), ('auth.role()'),
                                  ('auth.email()')) as f(call)
      where n.nspname in ('public', 'graphql_public')
        and e.expr like '%' || f.call || '%'
        and lower(e.expr) not like '%select ' || f.call || '%' $$,
  'no policy in the API''s schemas calls an auth function once per row'
);

-- anon_/authenticated_security_definer_function_executable (WARN): a function in an API schema
-- that runs with its owner's rights and that the API roles may call (POST /rest/v1/rpc/<name>).
select is_empty(
  $$ select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
       from pg_proc as p
       join pg_namespace as n on n.oid = p.pronamespace
      where n.nspname in ('public', 'graphql_public')
        and p.prosecdef
        and (has_function_privilege('anon', p.oid, 'EXECUTE')
             or has_function_privilege('authenticated', p.oid, 'EXECUTE')) $$,
  'no security definer function in the API''s schemas is executable by anon or authenticated'
);

-- security_definer_view (ERROR): a view in an API schema that the API roles may read and that
-- runs with its owner's rights instead of the reader's.
select is_empty(
  $$ select format('%I.%I', n.nspname, c.relname)
       from pg_class as c
       join pg_namespace as n on n.oid = c.relnamespace
      where n.nspname in ('public', 'graphql_public')
        and c.relkind = 'v'
        and (has_table_privilege('anon', c.oid, 'SELECT')
             or has_table_privilege('authenticated', c.oid, 'SELECT'))
        and not coalesce(c.reloptions, '{}') && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1', 'security_invoker=yes'] $$,
  'every view in the API''s schemas that anon or authenticated may read runs with the reader''s rights'
);

-- rls_disabled_in_public (ERROR).
select is_empty(
  $$ select format('%I.%I', n.nspname, c.relname)
       from pg_class as c
       join pg_namespace as n on n.oid = c.relnamespace
      where n.nspname in ('public', 'graphql_public')
        and c.relkind in ('r', 'p')
        and not c.relrowsecurity $$,
  'every table in the API''s schemas has row level security enabled'
);

-- function_search_path_mutable (WARN), over the schemas the migrations create functions in: a
-- function without its own search_path resolves names through the caller's.
select is_empty(
  $$ select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
       from pg_proc as p
       join pg_namespace as n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private', 'staff_access', 'visitor_access')
        and not exists (select from unnest(p.proconfig) as setting where setting like 'search_path=%') $$,
  'every function of ours sets its own search_path'
);

-- pg_graphql_anon_/authenticated_table_exposed (WARN): nothing here uses GraphQL, and where the
-- extension exists (a hosted project, `supabase test db`) the migration disables it.
select hasnt_extension('pg_graphql', 'pg_graphql is not enabled: no GraphQL description of the schema for any role');

select ok(
  not has_function_privilege('anon', 'staff_access.response_times()', 'EXECUTE'),
  'anon cannot execute the function behind the inbox''s response-time view'
);

-- ---------------------------------------------------------------- the anon insert policy

-- A later grant that lets a visitor name more columns (never made by the migrations).
grant insert (status, created_at, overdue_alerted_at, responded_by) on table public.contact_submissions to anon;

set local role anon;
select lives_ok(
  format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, gen_random_bytes(32))',
    gen_random_uuid(), pg_temp.armor(), pg_temp.key_id()
  ),
  'a visitor''s sealed row, as the form sends it, is let in'
);
select throws_ok(
  format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, status) values (%L, %L, %L, gen_random_bytes(32), %L)',
    gen_random_uuid(), pg_temp.armor(), pg_temp.key_id(), 'completed'
  ),
  '42501', 'new row violates row-level security policy for table "contact_submissions"',
  'a visitor cannot file a row as already handled (the purge would delete it a day later)'
);
select throws_ok(
  format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, created_at) values (%L, %L, %L, gen_random_bytes(32), %L)',
    gen_random_uuid(), pg_temp.armor(), pg_temp.key_id(), now() - interval '100 days'
  ),
  '42501', 'new row violates row-level security policy for table "contact_submissions"',
  'nor backdate it'
);
select throws_ok(
  format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, overdue_alerted_at) values (%L, %L, %L, gen_random_bytes(32), %L)',
    gen_random_uuid(), pg_temp.armor(), pg_temp.key_id(), now()
  ),
  '42501', 'new row violates row-level security policy for table "contact_submissions"',
  'nor mark it as already alerted, so that the overdue alert never comes'
);
select throws_ok(
  format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, responded_by) values (%L, %L, %L, gen_random_bytes(32), %L)',
    gen_random_uuid(), pg_temp.armor(), pg_temp.key_id(), 'ada@example.com'
  ),
  '42501', 'new row violates row-level security policy for table "contact_submissions"',
  'nor say who answered it'
);
reset role;

select * from finish();
rollback;
