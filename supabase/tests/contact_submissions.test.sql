-- contact_submissions: structure, privileges and row level security, proved the way requests
-- reach the table: as the role PostgREST switches to (`set local role`) with the JWT claims it
-- sets. What a sealed row must be is proved in sealed_submissions.test.sql. Runs with
-- `supabase test db` or `bash tests/db/run-pgtap.sh`.
begin;

select plan(30);

\ir fixtures/sealed-row.psql

-- A sealed row as the form sends it, with its id and mailbox chosen.
create function pg_temp.insert_sql(id uuid default gen_random_uuid(), mailbox text default gen_random_uuid()::text)
returns text language sql as $$
  select format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, %L)',
    id, pg_temp.armor(), pg_temp.key_id(), sha256(convert_to(mailbox, 'UTF8'))
  )
$$;

-- ---------------------------------------------------------------- structure (as the owner)

select has_table('public', 'contact_submissions', 'the table exists');
select columns_are(
  'public', 'contact_submissions',
  array[
    'id', 'created_at', 'key_id', 'sealed', 'mailbox_hash', 'status', 'responded_at', 'completed_at',
    'overdue_alerted_at', 'responded_by', 'awaiting_reply_since'
  ],
  'the table has exactly the columns of the data contract: no plaintext column'
);
select col_is_pk('public', 'contact_submissions', 'id', 'id is the primary key');
select col_default_is('public', 'contact_submissions', 'id', 'gen_random_uuid()', 'id defaults to a random uuid');
select col_default_is('public', 'contact_submissions', 'created_at', 'now()', 'created_at defaults to now()');
select results_eq(
  $$ select attname::text collate "default" from pg_attribute
      where attrelid = 'public.contact_submissions'::regclass and attnum > 0 and attnotnull order by 1 $$,
  $$ values ('created_at'), ('id'), ('key_id'), ('mailbox_hash'), ('sealed'), ('status') $$,
  'every row has its id, time, ciphertext, key, mailbox and status'
);
select bag_eq(
  $$ select conname::text from pg_constraint
     where conrelid = 'public.contact_submissions'::regclass and contype = 'c' $$,
  array[
    'contact_submissions_sealed_bounds_check', 'contact_submissions_sealed_format_check',
    'contact_submissions_status_check', 'contact_submissions_status_times_check',
    'contact_submissions_mailbox_hash_check', 'contact_submissions_responded_by_check'
  ],
  'the check constraints have the names the API errors report'
);
select ok(
  (select relrowsecurity from pg_class where oid = 'public.contact_submissions'::regclass),
  'row level security is enabled'
);
select policies_are(
  'public', 'contact_submissions',
  array['contact_submissions_anon_insert', 'contact_submissions_staff_select', 'contact_submissions_staff_update',
        'contact_submissions_inbox_select', 'contact_submissions_inbox_update'],
  'the policies are anon''s insert, and the staff''s read and update (staff_workflow.test.sql, staff_sign_in.test.sql)'
);
select policy_cmd_is('public', 'contact_submissions', 'contact_submissions_anon_insert', 'insert', 'the anon policy covers insert only');
select policy_roles_are('public', 'contact_submissions', 'contact_submissions_anon_insert', array['anon'], 'the anon policy applies to anon only');
select table_privs_are('public', 'contact_submissions', 'anon', array[]::text[], 'anon has no table-wide privilege');
select table_privs_are('public', 'contact_submissions', 'authenticated', array[]::text[], 'authenticated has no table-wide privilege');
select table_privs_are('public', 'contact_submissions', 'public', array[]::text[], 'PUBLIC has no privilege');
select table_privs_are(
  'public', 'contact_submissions', 'service_role',
  array['DELETE', 'INSERT', 'REFERENCES', 'SELECT', 'TRIGGER', 'TRUNCATE', 'UPDATE'],
  'service_role (staff tooling) has every privilege'
);

-- ---------------------------------------------------------------- anon, as PostgREST runs it

set local role anon;
select set_config('request.jwt.claims', '{"iss":"supabase-demo","role":"anon","exp":1983812996}', true);
select set_config('request.method', 'POST', true);
select set_config('request.path', '/contact_submissions', true);

select is(auth.role(), 'anon', 'the request runs with the anon claims');
select lives_ok(pg_temp.insert_sql(id => '11111111-1111-4111-8111-111111111111'), 'anon inserts a sealed row');
select throws_ok(
  pg_temp.insert_sql(id => '11111111-1111-4111-8111-111111111111'),
  '23505',
  'duplicate key value violates unique constraint "contact_submissions_pkey"',
  'a second insert with the same id is refused as a duplicate (409: already received)'
);
select throws_ok(
  'select * from public.contact_submissions',
  '42501', 'permission denied for table contact_submissions',
  'anon cannot read submissions'
);
select throws_ok(
  'select count(*) from public.contact_submissions',
  '42501', 'permission denied for table contact_submissions',
  'anon cannot even count submissions'
);
select throws_ok(
  $$ update public.contact_submissions set status = 'completed' $$,
  '42501', 'permission denied for table contact_submissions',
  'anon cannot update submissions'
);
select throws_ok(
  'delete from public.contact_submissions',
  '42501', 'permission denied for table contact_submissions',
  'anon cannot delete submissions'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, created_at)
            values (gen_random_uuid(), %L, %L, sha256('x'), now() - interval '1 year') $$, pg_temp.armor(), pg_temp.key_id()),
  '42501', 'permission denied for table contact_submissions',
  'anon cannot choose created_at'
);
select throws_ok(
  pg_temp.insert_sql() || ' on conflict (id) do nothing',
  '42501', null,
  'anon cannot upsert (the conflict target needs the read access anon does not have)'
);

reset role;

-- ---------------------------------------------------------------- authenticated

set local role authenticated;
select set_config('request.jwt.claims', '{"role":"authenticated","sub":"00000000-0000-4000-8000-000000000001"}', true);
select throws_ok(
  pg_temp.insert_sql(),
  '42501', 'permission denied for table contact_submissions',
  'a signed-in user cannot insert (only the anonymous form may)'
);
reset role;

-- ---------------------------------------------------------------- service_role (staff tooling)

set local role service_role;
select set_config('request.jwt.claims', '{"iss":"supabase-demo","role":"service_role","exp":1983812996}', true);
select results_eq(
  $$ select sealed, key_id, status, created_at = now()
     from public.contact_submissions where id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values (pg_temp.armor(), pg_temp.key_id(), 'new'::text, true) $$,
  'service_role reads the row: ciphertext, key_id, status new, created_at set by the database'
);
select lives_ok(
  $$ update public.contact_submissions set status = 'responded' where id = '11111111-1111-4111-8111-111111111111' $$,
  'service_role can update submissions'
);
select lives_ok(pg_temp.insert_sql(), 'service_role can insert a sealed row');
select throws_ok(
  $$ insert into public.contact_submissions (id, key_id, mailbox_hash) values (gen_random_uuid(), 'a49fab8f38573ef6', sha256('y')) $$,
  '23502', null,
  'a row without ciphertext is refused, whoever inserts it'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id) values (gen_random_uuid(), %L, %L) $$, pg_temp.armor(), pg_temp.key_id()),
  '23502', null,
  'a row without a mailbox is refused, whoever inserts it'
);
reset role;

select * from finish();
rollback;
