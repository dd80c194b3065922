-- What the migrations assume a fresh Supabase database provides. On the real stack this checks
-- our assumptions about Supabase; on plain PostgreSQL it checks supabase/local/bootstrap.sql,
-- which stands in for it (the pgTAP runner and the local backend apply it before migrations).
begin;

select plan(23);

select has_role('anon', 'the anon role exists');
select has_pk('auth', 'users', 'Supabase Auth''s users table exists, keyed by id (the staff list references it)');
select has_role('authenticated', 'the authenticated role exists');
select has_role('service_role', 'the service_role role exists');
select has_role('authenticator', 'the authenticator role exists');

select results_eq(
  $$ select rolname::text collate "default", rolcanlogin, rolinherit, rolbypassrls, rolsuper
     from pg_roles
     where rolname in ('anon', 'authenticated', 'service_role', 'authenticator')
     order by rolname $$,
  $$ values ('anon', false, true, false, false),
            ('authenticated', false, true, false, false),
            ('authenticator', true, false, false, false),
            ('service_role', false, true, true, false) $$,
  'the API roles have Supabase''s attributes: INHERIT but authenticator, only service_role bypasses RLS, only authenticator logs in'
);
select is_member_of('anon', 'authenticator', 'authenticator can switch to anon');
select is_member_of('authenticated', 'authenticator', 'authenticator can switch to authenticated');
select is_member_of('service_role', 'authenticator', 'authenticator can switch to service_role');

-- The timeouts PostgREST applies: the login's (authenticator) and, at SET ROLE, the role's.
select results_eq(
  $$ select r.rolname::text collate "default", c.setting collate "default"
       from pg_db_role_setting as s
       join pg_roles as r on r.oid = s.setrole
      cross join lateral unnest(s.setconfig) as c (setting)
      where s.setdatabase = 0 and r.rolname in ('anon', 'authenticated', 'authenticator')
        and (c.setting like 'statement_timeout=%' or c.setting like 'lock_timeout=%')
      order by 1, 2 $$,
  $$ values ('anon', 'statement_timeout=3s'),
            ('authenticated', 'statement_timeout=8s'),
            ('authenticator', 'lock_timeout=8s'),
            ('authenticator', 'statement_timeout=8s') $$,
  'anon''s statements stop after 3 s, authenticated''s after 8 s, every lock wait after 8 s'
);

-- The suites run as Supabase's postgres does (supabase test db connects as it), not as a
-- superuser: what they need beyond that, they could not do on Supabase.
select results_eq(
  $$ select rolsuper, rolcreaterole, rolbypassrls from pg_roles where rolname = current_user $$,
  $$ values (false, true, true) $$,
  'the suite runs as a role shaped like Supabase''s postgres: CREATEROLE, BYPASSRLS, not a superuser'
);

select col_type_is('auth', 'sessions', 'aal', 'auth.aal_level', 'a session''s assurance level is GoTrue''s enum');
select col_type_is('auth', 'mfa_factors', 'factor_type', 'auth.factor_type', 'a factor''s type is GoTrue''s enum');
select col_type_is('auth', 'mfa_factors', 'status', 'auth.factor_status', 'a factor''s status is GoTrue''s enum');
select enum_has_labels('auth', 'aal_level', array['aal1', 'aal2', 'aal3'], 'with GoTrue''s assurance levels');
select enum_has_labels('auth', 'factor_type', array['totp', 'webauthn', 'phone'], 'with GoTrue''s factor types');
select enum_has_labels('auth', 'factor_status', array['unverified', 'verified'], 'with GoTrue''s factor statuses');

select ok(has_schema_privilege('anon', 'public', 'USAGE'), 'anon can use schema public');

set local role anon;
select set_config(
  'request.jwt.claims',
  '{"role":"anon","sub":"3f1c6a1e-8c53-4f4e-9a7e-1b2f3c4d5e6f","email":"ada@example.com"}',
  true
);
select is(auth.role(), 'anon', 'auth.role() reads the role claim');
select is(auth.uid(), '3f1c6a1e-8c53-4f4e-9a7e-1b2f3c4d5e6f'::uuid, 'auth.uid() reads the sub claim');
select is(auth.email(), 'ada@example.com', 'auth.email() reads the email claim');
select is(auth.jwt() ->> 'role', 'anon', 'auth.jwt() returns the claims');
reset role;

select has_table(
  'supabase_migrations', 'schema_migrations',
  'applied migrations are recorded where the Supabase CLI records them'
);

select * from finish();
rollback;
