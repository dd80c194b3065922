-- What the migrations assume a fresh Supabase database provides. On the real stack this checks
-- our assumptions about Supabase; on plain PostgreSQL it checks supabase/local/bootstrap.sql,
-- which stands in for it (the pgTAP runner and the local backend apply it before migrations).
begin;

select plan(15);

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
  $$ values ('anon', false, false, false, false),
            ('authenticated', false, false, false, false),
            ('authenticator', true, false, false, false),
            ('service_role', false, false, true, false) $$,
  'the API roles have Supabase''s attributes: only service_role bypasses RLS, only authenticator logs in'
);
select is_member_of('anon', 'authenticator', 'authenticator can switch to anon');
select is_member_of('authenticated', 'authenticator', 'authenticator can switch to authenticated');
select is_member_of('service_role', 'authenticator', 'authenticator can switch to service_role');

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
