-- contact_submissions: structure, privileges, row level security and the first migration's check
-- constraints, proved the way requests reach the table: as the role PostgREST switches to
-- (`set local role`) with the JWT claims it sets. Runs with `supabase test db` or
-- `bash tests/db/run-pgtap.sh`.
--
-- Since sealing (sealed_submissions.test.sql) anon can no longer send plaintext at all; the
-- plaintext columns remain for legacy rows, and their checks still hold for whoever writes one,
-- so those checks are proved here as staff (service_role) write rows.
begin;

select plan(62);

-- A valid legacy (plaintext) insert, with one field overridden. Statements are built
-- as text so that throws_ok/lives_ok run them (and catch their errors) as the current role.
create function pg_temp.insert_sql(
  id uuid default gen_random_uuid(),
  name text default 'Ada Lovelace',
  contact text default 'ada@example.com',
  project_type text default 'crypto/web3-launch',
  budget text default '10k-25k',
  message text default 'We launch a token next month and need a campaign.',
  user_agent text default 'Mozilla/5.0 (pgTAP)'
) returns text
language sql
as $$
  select format(
    'insert into public.contact_submissions (id, name, contact, project_type, budget, message, user_agent) values (%L, %L, %L, %L, %L, %L, %L)',
    id, name, contact, project_type, budget, message, user_agent
  )
$$;

-- ---------------------------------------------------------------- structure (as the owner)

select has_table('public', 'contact_submissions', 'the table exists');
select columns_are(
  'public', 'contact_submissions',
  array[
    'id', 'created_at', 'name', 'contact', 'project_type', 'budget', 'message', 'user_agent',
    'sealed', 'key_id', 'status', 'responded_at', 'completed_at', 'overdue_alerted_at',
    'mailbox_hash', 'responded_by', 'awaiting_reply_since'
  ],
  'the table has exactly the columns of the data contract'
);
select col_is_pk('public', 'contact_submissions', 'id', 'id is the primary key');
select col_default_is('public', 'contact_submissions', 'id', 'gen_random_uuid()', 'id defaults to a random uuid');
select col_default_is('public', 'contact_submissions', 'created_at', 'now()', 'created_at defaults to now()');
select col_not_null('public', 'contact_submissions', 'created_at', 'created_at is not null');
select col_is_null('public', 'contact_submissions', 'project_type', 'project_type is nullable');
select col_is_null('public', 'contact_submissions', 'budget', 'budget is nullable');
select col_is_null('public', 'contact_submissions', 'message', 'message is nullable (sealed rows have no plaintext)');
select bag_eq(
  $$ select conname::text from pg_constraint
     where conrelid = 'public.contact_submissions'::regclass and contype = 'c' $$,
  array[
    'contact_submissions_name_check', 'contact_submissions_contact_check',
    'contact_submissions_message_check', 'contact_submissions_user_agent_check',
    'contact_submissions_project_type_check', 'contact_submissions_budget_check',
    'contact_submissions_sealed_bounds_check', 'contact_submissions_sealed_format_check',
    'contact_submissions_sealed_or_legacy_check',
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
select table_privs_are('public', 'contact_submissions', 'authenticated', array[]::text[], 'authenticated has no privilege');
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
  $$ update public.contact_submissions set message = 'changed' $$,
  '42501', 'permission denied for table contact_submissions',
  'anon cannot update submissions'
);
select throws_ok(
  'delete from public.contact_submissions',
  '42501', 'permission denied for table contact_submissions',
  'anon cannot delete submissions'
);
select throws_ok(
  $$ insert into public.contact_submissions (name, contact, message, created_at)
     values ('Ada', 'ada@example.com', 'Hello', now() - interval '1 year') $$,
  '42501', 'permission denied for table contact_submissions',
  'anon cannot choose created_at'
);
select throws_ok(
  $$ insert into public.contact_submissions (id, name, contact, message) values (gen_random_uuid(), 'Ada', 'ada@example.com', 'Hi')
     on conflict (id) do nothing $$,
  '42501', null,
  'anon cannot upsert (the conflict target needs the read access anon does not have)'
);

reset role;

-- ---------------------------------------------------------------- legacy rows, as staff write them

set local role service_role;
select set_config('request.jwt.claims', '{"iss":"supabase-demo","role":"service_role","exp":1983812996}', true);

select lives_ok(
  pg_temp.insert_sql(id => '11111111-1111-4111-8111-111111111111'),
  'a valid legacy row satisfies every check'
);
select throws_ok(
  pg_temp.insert_sql(id => '11111111-1111-4111-8111-111111111111'),
  '23505',
  'duplicate key value violates unique constraint "contact_submissions_pkey"',
  'a second insert with the same id is refused as a duplicate'
);
select lives_ok(
  pg_temp.insert_sql(project_type => null, budget => null),
  'project type and budget may be null'
);
-- name
select lives_ok(pg_temp.insert_sql(name => repeat('n', 120)), 'a name of exactly 120 characters is accepted');
select lives_ok(pg_temp.insert_sql(name => repeat('é', 120)), 'the name limit counts characters, not bytes');
select throws_ok(pg_temp.insert_sql(name => repeat('n', 121)), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_name_check"', 'a name of 121 characters is refused');
select throws_ok(pg_temp.insert_sql(name => ''), '23514', null, 'an empty name is refused');
select throws_ok(pg_temp.insert_sql(name => E' \t\n '), '23514', null, 'a whitespace-only name is refused');
select throws_ok(pg_temp.insert_sql(name => ' Ada'), '23514', null, 'a name with a leading space is refused');
select throws_ok(pg_temp.insert_sql(name => E'Ada\n'), '23514', null, 'a name with a trailing newline is refused');
select throws_ok(pg_temp.insert_sql(name => E'Ada\x0B'), '23514', null, 'a name with a trailing vertical tab is refused');
select lives_ok(pg_temp.insert_sql(name => 'Viv'), 'a name starting and ending with the letter v is accepted');
select throws_ok(pg_temp.insert_sql(name => null), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_or_legacy_check"', 'a legacy row without a name is refused');

-- contact
select lives_ok(pg_temp.insert_sql(contact => repeat('c', 200)), 'a contact of exactly 200 characters is accepted');
select throws_ok(pg_temp.insert_sql(contact => repeat('c', 201)), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_contact_check"', 'a contact of 201 characters is refused');
select throws_ok(pg_temp.insert_sql(contact => '   '), '23514', null, 'a whitespace-only contact is refused');
select throws_ok(pg_temp.insert_sql(contact => E'\t@ada'), '23514', null, 'a contact with a leading tab is refused');
select throws_ok(pg_temp.insert_sql(contact => '@ada '), '23514', null, 'a contact with a trailing space is refused');

-- message
select lives_ok(pg_temp.insert_sql(message => repeat('m', 5000)), 'a message of exactly 5000 characters is accepted');
select throws_ok(pg_temp.insert_sql(message => repeat('m', 5001)), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_message_check"', 'a message of 5001 characters is refused');
select throws_ok(pg_temp.insert_sql(message => E'\r\n\f'), '23514', null, 'a whitespace-only message is refused');
select throws_ok(pg_temp.insert_sql(message => E'Hello\n'), '23514', null, 'a message with a trailing newline is refused');
select lives_ok(pg_temp.insert_sql(message => E'Line one.\n\nLine two.'), 'a message with inner line breaks is accepted');

-- user_agent
select lives_ok(pg_temp.insert_sql(user_agent => repeat('u', 512)), 'a user agent of exactly 512 characters is accepted');
select throws_ok(pg_temp.insert_sql(user_agent => repeat('u', 513)), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_user_agent_check"', 'a user agent of 513 characters is refused');
select lives_ok(pg_temp.insert_sql(user_agent => ''), 'an empty user agent is accepted');

-- project_type and budget
select lives_ok(
  $$ insert into public.contact_submissions (name, contact, project_type, budget, message)
     select 'Ada', 'every-option@example.com', project_type, budget, 'Hello'
     from unnest(array[
       'crypto/web3-launch', 'anonymous-marketing-campaign', 'community-building',
       'ai-automation-setup', 'payment-solutions', 'email/sms-sequences', 'other'
     ]) as project_type
     cross join unnest(array[
       'under-10k', '10k-25k', '25k-50k', '50k-100k', '100k-plus', 'discuss'
     ]) as budget $$,
  'every project type and budget value the form offers is accepted, in every combination'
);
select lives_ok(pg_temp.insert_sql(project_type => 'crypto/web3-launch'), 'project type crypto/web3-launch is accepted');
select lives_ok(pg_temp.insert_sql(project_type => 'email/sms-sequences'), 'project type email/sms-sequences is accepted');
select throws_ok(pg_temp.insert_sql(project_type => 'Other'), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_project_type_check"', 'a project type label instead of its value is refused');
select throws_ok(pg_temp.insert_sql(project_type => 'nft-drop'), '23514', null, 'an unknown project type is refused');
select lives_ok(pg_temp.insert_sql(budget => '100k-plus'), 'budget 100k-plus is accepted');
select throws_ok(pg_temp.insert_sql(budget => '1m-plus'), '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_budget_check"', 'an unknown budget is refused');

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
  $$ select name, contact, project_type, budget, created_at = now()
     from public.contact_submissions where id = '11111111-1111-4111-8111-111111111111' $$,
  $$ values ('Ada Lovelace'::text, 'ada@example.com'::text, 'crypto/web3-launch'::text, '10k-25k'::text, true) $$,
  'service_role reads the legacy row, with created_at set by the database'
);
select is(
  (select count(*)::int from public.contact_submissions where contact = 'every-option@example.com'),
  42,
  'service_role sees all 7 x 6 option combinations'
);
select lives_ok(
  $$ update public.contact_submissions set message = 'handled' where id = '11111111-1111-4111-8111-111111111111' $$,
  'service_role can update submissions'
);
reset role;

select * from finish();
rollback;
