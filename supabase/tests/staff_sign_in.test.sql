-- Staff who sign in with Supabase Auth: only a signed-in, non-anonymous user on the
-- staff list, with a second factor (aal2), reads sealed rows and changes their status; removal
-- takes effect on the next request. Each request is simulated as PostgREST makes it: `set local
-- role` and the token's claims in request.jwt.claims.
begin;

select plan(65);

\ir fixtures/sealed-row.psql

-- Besides Ada (staff) and Bob (signed up, not staff), an anonymous user the agency put on the
-- list by mistake (anonymous users must never pass, list or not).
\ir fixtures/staff-request.psql
insert into auth.users (id, aud, role, email, is_anonymous) values
  ('c0000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', null, true);
insert into private.staff_members (user_id) values ('c0000000-0000-4000-8000-00000000000c');

-- One fresh row and one overdue row (created 25 hours ago), inserted by the owner.
insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, created_at) values
  ('dddddddd-0000-4000-8000-000000000001', pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32), now()),
  ('dddddddd-0000-4000-8000-000000000002', pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32), now() - interval '25 hours');

-- How many rows a read as the current request returns.
create function pg_temp.visible() returns integer language sql as $$
  select count(*)::int from public.contact_submissions
$$;

-- How many rows an update of status by the current request changes (RLS filters silently).
create function pg_temp.mark_responded(id uuid) returns integer language plpgsql as $$
declare changed integer;
begin
  update public.contact_submissions set status = 'responded' where contact_submissions.id = mark_responded.id;
  get diagnostics changed = row_count;
  return changed;
end
$$;

-- Everything a request locked out must not get, as four assertions: no row, no status change
-- (on the overdue row, which no lockout may touch), nothing overdue, no response times.
create function pg_temp.locked_out(who text) returns setof text language plpgsql as $$
begin
  return next is(pg_temp.visible(), 0, who || ' sees no row');
  return next is(pg_temp.mark_responded('dddddddd-0000-4000-8000-000000000002'), 0, who || ' changes no row');
  return next is((select count(*)::int from public.inbox_overdue_submissions), 0, who || ' sees nothing overdue');
  return next is((select count(*)::int from public.inbox_response_times), 0, who || ' sees no response times');
end
$$;

-- ---------------------------------------------------------------- structure

select has_table('private', 'staff_members', 'the staff list exists');
select fk_ok('private', 'staff_members', 'user_id', 'auth', 'users', 'id', 'staff are Supabase Auth users');
select table_privs_are('private', 'staff_members', 'authenticated', array[]::text[], 'authenticated has no right on the staff list');
select table_privs_are('private', 'staff_members', 'anon', array[]::text[], 'anon has no right on the staff list');
select ok(not has_schema_privilege('authenticated', 'private', 'USAGE'), 'private stays closed to authenticated');
select ok(not has_schema_privilege('anon', 'staff_access', 'USAGE'), 'anon cannot use the gate''s schema');
select functions_are(
  'staff_access', array['is_inbox_reader', 'overdue_submissions', 'purge_device_links', 'response_times'],
  'the gate''s schema holds the gate, the overdue rows and response times it guards and the device links'' purge, nothing else'
);
select results_eq(
  $$ select column_name::text collate "default" from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_submissions'
       and grantee = 'authenticated' and privilege_type = 'SELECT' order by 1 $$,
  $$ values ('awaiting_reply_since'), ('completed_at'), ('created_at'), ('id'), ('key_id'), ('responded_at'), ('responded_by'), ('sealed'), ('status') $$,
  'authenticated may select exactly the columns the inbox needs'
);
select results_eq(
  $$ select column_name::text collate "default" from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_submissions'
       and grantee = 'authenticated' and privilege_type in ('UPDATE', 'INSERT', 'DELETE') order by 1 $$,
  $$ values ('status') $$,
  'and update status, and nothing else'
);
select table_privs_are('public', 'inbox_overdue_submissions', 'anon', array[]::text[], 'anon has no right on the inbox''s overdue view');
select table_privs_are('public', 'inbox_response_times', 'anon', array[]::text[], 'anon has no right on the inbox''s response-time view');

-- ---------------------------------------------------------------- anon

select pg_temp.request_as('anon');
select throws_ok('select count(*) from public.contact_submissions', '42501', null, 'anon reads nothing');
select throws_ok('select count(*) from public.inbox_overdue_submissions', '42501', null, 'anon cannot read the overdue view');
select throws_ok('select count(*) from public.inbox_response_times', '42501', null, 'anon cannot read the response times');
reset role;

-- ---------------------------------------------------------------- signed in, not on the list

select pg_temp.request_as('authenticated', 'b0000000-0000-4000-8000-00000000000b', 'aal2');
select * from pg_temp.locked_out('a user not on the list, even at aal2,');
select is(staff_access.is_inbox_reader(), false, 'the gate says no');
select is(public.inbox_access(), false, 'and the inbox is told so');
select throws_ok('select count(*) from private.staff_members', '42501', null, 'nor can read the staff list');
reset role;

-- ---------------------------------------------------------------- on the list, password only (aal1)

select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1');
select * from pg_temp.locked_out('staff before the second factor (aal1)');
select is(public.inbox_access(), false, 'the inbox is told staff need the second factor first');
reset role;

-- ---------------------------------------------------------------- on the list, second factor (aal2)

select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
select is(pg_temp.visible(), 2, 'staff with the second factor see every row');
select is(public.inbox_access(), true, 'and the inbox is told they may read');
select is(
  (select sealed from public.contact_submissions where id = 'dddddddd-0000-4000-8000-000000000001'),
  pg_temp.armor(), 'and read its sealed document'
);
select throws_ok('select mailbox_hash from public.contact_submissions', '42501', null, 'but not the visitor''s mailbox hash');
select throws_ok('select overdue_alerted_at from public.contact_submissions', '42501', null, 'nor the alert bookkeeping');
select results_eq(
  $$ select id from public.inbox_overdue_submissions $$,
  $$ values ('dddddddd-0000-4000-8000-000000000002'::uuid) $$,
  'the overdue view shows the row waiting for 25 hours'
);
select is(pg_temp.mark_responded('dddddddd-0000-4000-8000-000000000001'), 1, 'staff mark a row responded');
select is(
  (select responded_at is not null from public.contact_submissions where id = 'dddddddd-0000-4000-8000-000000000001'),
  true, 'and the trigger stamps the time'
);
select is((select responded from public.inbox_response_times), 1, 'the response times count that answer');
select throws_ok(
  $$ update public.contact_submissions set sealed = 'x' where id = 'dddddddd-0000-4000-8000-000000000001' $$,
  '42501', null, 'staff cannot change the sealed document'
);
select throws_ok(
  $$ update public.contact_submissions set responded_at = now() $$,
  '42501', null, 'nor a time'
);
select throws_ok(
  $$ delete from public.contact_submissions $$,
  '42501', null, 'nor delete a row: the purge is the database''s job'
);
select throws_ok(
  format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (gen_random_uuid(), %L, %L, gen_random_bytes(32))', pg_temp.armor(), pg_temp.key_id()),
  '42501', null, 'nor insert one'
);
select throws_ok(
  $$ insert into private.staff_members (user_id) values ('b0000000-0000-4000-8000-00000000000b') $$,
  '42501', null, 'nor add anyone to the staff list'
);
reset role;

-- ---------------------------------------------------------------- removed, still holding an aal2 token

delete from private.staff_members where user_id = 'a0000000-0000-4000-8000-00000000000a';
select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
select * from pg_temp.locked_out('removed from the list, the same aal2 token on its next request');
reset role;
insert into private.staff_members (user_id) values ('a0000000-0000-4000-8000-00000000000a');

-- ---------------------------------------------------------------- signed out elsewhere, still holding an aal2 token

-- "Sign out everywhere" deletes the session's row in auth.sessions; the access token
-- stays a valid JWT until it expires, and the gate refuses it on its next request.
select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
select is(public.inbox_access(), true, 'a token whose session is live reads');
reset role;
delete from auth.sessions where id::text = current_setting('request.jwt.claims')::jsonb ->> 'session_id';
set local role authenticated;
select * from pg_temp.locked_out('its session ended, the same aal2 token on its next request');
select is(public.inbox_access(), false, 'and the inbox is told it may not read');
reset role;

-- ---------------------------------------------------------------- an anonymous user

select pg_temp.request_as('authenticated', 'c0000000-0000-4000-8000-00000000000c', 'aal2');
select * from pg_temp.locked_out('an anonymous user, even on the list and at aal2,');
reset role;

-- ---------------------------------------------------------------- service_role

select pg_temp.request_as('service_role');
select is(pg_temp.visible(), 2, 'service_role (staff tooling, the dashboard) sees every row');
select lives_ok(
  $$ insert into private.staff_members (user_id) values ('b0000000-0000-4000-8000-00000000000b') $$,
  'service_role adds staff'
);
select lives_ok(
  $$ delete from private.staff_members where user_id = 'b0000000-0000-4000-8000-00000000000b' $$,
  'and removes them'
);
select results_eq(
  $$ select email, second_factor from public.list_staff_members() $$,
  $$ values ('ada@example.com'::text, false), (null::text, false) $$,
  'service_role lists the staff by email, with whether a second factor is set up'
);
select is(public.add_staff_member('BOB@example.com'), 'b0000000-0000-4000-8000-00000000000b'::uuid, 'and adds one by their Auth email, in any case');
select is(public.remove_staff_member('bob@example.com'), true, 'and removes them by email');
select throws_ok(
  $$ select public.add_staff_member('nobody@example.com') $$,
  'P0002', 'no Supabase Auth user has the email nobody@example.com',
  'adding an email Auth does not know says so'
);
reset role;
select ok(not has_function_privilege('anon', 'public.add_staff_member(text)', 'EXECUTE'), 'anon cannot add staff');
select ok(not has_function_privilege('authenticated', 'public.add_staff_member(text)', 'EXECUTE'), 'nor can a signed-in user');
select ok(not has_function_privilege('authenticated', 'public.list_staff_members()', 'EXECUTE'), 'nor list them');

-- ---------------------------------------------------------------- deleting the user

delete from auth.users where id = 'a0000000-0000-4000-8000-00000000000a';
select is(
  (select count(*)::int from private.staff_members where user_id = 'a0000000-0000-4000-8000-00000000000a'), 0,
  'deleting the Auth user takes them off the list'
);

select * from finish();
rollback;
