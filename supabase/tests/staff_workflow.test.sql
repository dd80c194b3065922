-- The staff side: status times stamped by trigger, the purge, the 24-hour watch views,
-- content-free alerts, the contact_staff role, and the pg_cron jobs where pg_cron is loaded
-- (tests/db/run-pgtap.sh runs this file again in a database where the server preloads it).
-- Staff are proved as a member of contact_staff, as staff logins are: the suite makes the role it
-- runs as one for its own transaction (`postgres` may: it created the role, with CREATEROLE).
begin;

select plan(72);

-- Sealed rows the staff side never looks inside: pg_temp.armor(), pg_temp.key_id().
\ir fixtures/sealed-row.psql

-- A row as staff tooling would store it, with its times chosen (the owner may; anon may not).
create function pg_temp.add(
  id uuid, status text, created_at timestamptz,
  responded_at timestamptz default null, completed_at timestamptz default null,
  overdue_alerted_at timestamptz default null
) returns void language sql as $$
  insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, status, created_at, responded_at, completed_at, overdue_alerted_at)
  values (id, pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32), status, created_at, responded_at, completed_at, overdue_alerted_at)
$$;

-- pgTAP lives in schema extensions; staff need it only to run these assertions as themselves.
grant usage on schema extensions to contact_staff;
grant contact_staff to current_user;

-- Staff alerts land in private.test_alerts instead of being sent.
\ir fixtures/captured-alerts.psql

-- ---------------------------------------------------------------- structure and role

select has_column('public', 'contact_submissions', 'status', 'status exists');
select col_default_is('public', 'contact_submissions', 'status', 'new', 'status defaults to new');
select col_not_null('public', 'contact_submissions', 'status', 'status is not null');
select has_column('public', 'contact_submissions', 'responded_at', 'responded_at exists');
select has_column('public', 'contact_submissions', 'completed_at', 'completed_at exists');
select has_column('public', 'contact_submissions', 'overdue_alerted_at', 'overdue_alerted_at exists');
select has_role('contact_staff', 'the contact_staff role exists');
select is(
  (select rolcanlogin from pg_roles where rolname = 'contact_staff'), false,
  'contact_staff is a group role: it cannot log in'
);
select table_privs_are('public', 'contact_submissions', 'contact_staff', array['SELECT'], 'contact_staff reads the table (and nothing else table-wide)');
select results_eq(
  $$ select column_name::text collate "default" from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_submissions'
       and grantee = 'contact_staff' and privilege_type = 'UPDATE' $$,
  $$ values ('status') $$,
  'contact_staff may update the status column only'
);
select table_privs_are('private', 'overdue_submissions', 'contact_staff', array['SELECT'], 'contact_staff reads the overdue view');
select table_privs_are('private', 'response_times', 'contact_staff', array['SELECT'], 'contact_staff reads the response-time view');
select table_privs_are('private', 'overdue_submissions', 'anon', array[]::text[], 'anon has no right on the overdue view');
select table_privs_are('private', 'response_times', 'authenticated', array[]::text[], 'authenticated has no right on the response-time view');
select policies_are(
  'public', 'contact_submissions',
  array['contact_submissions_anon_insert', 'contact_submissions_staff_select', 'contact_submissions_staff_update',
        'contact_submissions_inbox_select', 'contact_submissions_inbox_update'],
  'policies: anon inserts, staff read and update (the login role here, signed-in staff in staff_sign_in.test.sql)'
);
select policy_roles_are('public', 'contact_submissions', 'contact_submissions_staff_update', array['contact_staff'], 'the update policy is for contact_staff only');
select ok(not has_function_privilege('anon', 'private.purge_contact_submissions(timestamptz)', 'EXECUTE'), 'anon cannot run the purge');
select ok(not has_function_privilege('contact_staff', 'private.purge_contact_submissions(timestamptz)', 'EXECUTE'), 'staff cannot run the purge by hand');
select ok(not has_function_privilege('anon', 'private.alert_overdue_submissions(timestamptz)', 'EXECUTE'), 'anon cannot run the overdue sweep');

-- ---------------------------------------------------------------- status trigger

set local role anon;
select lives_ok(
  format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, gen_random_bytes(32))',
         'aaaaaaa1-0000-4000-8000-000000000001', pg_temp.armor(), pg_temp.key_id()),
  'anon inserts a sealed row'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, status) values (gen_random_uuid(), %L, %L, gen_random_bytes(32), 'completed') $$, pg_temp.armor(), pg_temp.key_id()),
  '42501', 'permission denied for table contact_submissions',
  'anon cannot set status'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, responded_at) values (gen_random_uuid(), %L, %L, gen_random_bytes(32), now()) $$, pg_temp.armor(), pg_temp.key_id()),
  '42501', 'permission denied for table contact_submissions',
  'anon cannot set responded_at'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, completed_at) values (gen_random_uuid(), %L, %L, gen_random_bytes(32), now()) $$, pg_temp.armor(), pg_temp.key_id()),
  '42501', 'permission denied for table contact_submissions',
  'anon cannot set completed_at'
);
select throws_ok(
  format($$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, overdue_alerted_at) values (gen_random_uuid(), %L, %L, gen_random_bytes(32), now()) $$, pg_temp.armor(), pg_temp.key_id()),
  '42501', 'permission denied for table contact_submissions',
  'anon cannot set overdue_alerted_at'
);
select throws_ok(
  $$ update public.contact_submissions set status = 'completed' $$,
  '42501', 'permission denied for table contact_submissions',
  'anon cannot change a status'
);
reset role;

select results_eq(
  $$ select status, responded_at, completed_at, overdue_alerted_at from public.contact_submissions where id = 'aaaaaaa1-0000-4000-8000-000000000001' $$,
  $$ values ('new'::text, null::timestamptz, null::timestamptz, null::timestamptz) $$,
  'a new row is new, with no times'
);

-- A row that was answered two hours ago and is now being worked on.
select pg_temp.add('aaaaaaa2-0000-4000-8000-000000000002', 'responded', now() - interval '5 hours', now() - interval '2 hours');
-- And one nobody will answer.
select pg_temp.add('aaaaaaa4-0000-4000-8000-000000000004', 'new', now() - interval '6 hours');

set local role contact_staff;
select lives_ok(
  $$ update public.contact_submissions set status = 'responded' where id = 'aaaaaaa1-0000-4000-8000-000000000001' $$,
  'staff set a status'
);
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa1-0000-4000-8000-000000000001' $$,
  $$ values (now(), null::timestamptz) $$,
  'leaving new stamps responded_at'
);
select lives_ok(
  $$ update public.contact_submissions set status = 'engaged' where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  'responded → engaged'
);
select is(
  (select responded_at from public.contact_submissions where id = 'aaaaaaa2-0000-4000-8000-000000000002'),
  now() - interval '2 hours',
  'responded_at is stamped once: a later change keeps it'
);
select throws_ok(
  $$ update public.contact_submissions set responded_at = now() - interval '1 day' $$,
  '42501', 'permission denied for table contact_submissions',
  'staff cannot write the times themselves'
);
select lives_ok(
  $$ update public.contact_submissions set status = 'completed' where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  'engaged → completed'
);
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  $$ values (now() - interval '2 hours', now()) $$,
  'closing stamps completed_at and keeps responded_at'
);
select lives_ok(
  $$ update public.contact_submissions set status = 'completed' where id = 'aaaaaaa4-0000-4000-8000-000000000004' $$,
  'new → completed'
);
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa4-0000-4000-8000-000000000004' $$,
  $$ values (null::timestamptz, now()) $$,
  'closing an inquiry nobody answered stamps completed_at and no response'
);
select lives_ok(
  $$ update public.contact_submissions set status = 'engaged' where id = 'aaaaaaa4-0000-4000-8000-000000000004' $$,
  'a closed, unanswered inquiry reopened as engaged'
);
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa4-0000-4000-8000-000000000004' $$,
  $$ values (now(), null::timestamptz) $$,
  'saying it was answered stamps the response then'
);
select throws_ok(
  $$ update public.contact_submissions set status = 'new' where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  '23514', 'a submission''s status cannot go back to new',
  'a status cannot go back to new'
);
select throws_ok(
  $$ update public.contact_submissions set status = 'archived' where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_status_check"',
  'an unknown status is refused'
);
select throws_ok(
  $$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (gen_random_uuid(), 'x', 'x', gen_random_bytes(32)) $$,
  '42501', 'permission denied for table contact_submissions',
  'staff cannot insert'
);
select throws_ok(
  $$ delete from public.contact_submissions $$,
  '42501', 'permission denied for table contact_submissions',
  'staff cannot delete (the purge does)'
);
reset role;

-- Times written by hand (service_role, the dashboard) are ignored; a closed row stays closed at
-- its first closing time when moved between closed statuses, and a reopened row loses it.
update public.contact_submissions set completed_at = now() - interval '1 year', responded_at = null
 where id = 'aaaaaaa2-0000-4000-8000-000000000002';
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa2-0000-4000-8000-000000000002' $$,
  $$ values (now() - interval '2 hours', now()) $$,
  'a direct write of the times is ignored'
);
select pg_temp.add('aaaaaaa3-0000-4000-8000-000000000003', 'completed', now() - interval '3 days', now() - interval '2 days', now() - interval '1 day');
update public.contact_submissions set status = 'declined' where id = 'aaaaaaa3-0000-4000-8000-000000000003';
select is(
  (select completed_at from public.contact_submissions where id = 'aaaaaaa3-0000-4000-8000-000000000003'),
  now() - interval '1 day',
  'completed → declined keeps completed_at (stamped once)'
);
update public.contact_submissions set status = 'engaged' where id = 'aaaaaaa3-0000-4000-8000-000000000003';
select results_eq(
  $$ select responded_at, completed_at from public.contact_submissions where id = 'aaaaaaa3-0000-4000-8000-000000000003' $$,
  $$ values (now() - interval '2 days', null::timestamptz) $$,
  'reopening clears completed_at, so the purge no longer counts from it'
);
select is(
  (select count(*)::int from private.response_log where response_time = interval '3 hours' or response_time = interval '1 day'),
  2,
  'each first response logged its delay (content-free)'
);
select is(
  (select count(*)::int from private.response_log where response_time is null),
  1,
  'the inquiry closed unanswered is logged with no delay'
);

-- ---------------------------------------------------------------- alerts

select is(
  private.staff_alert_payload('contact.new', 'aaaaaaa1-0000-4000-8000-000000000001'),
  '{"event":"contact.new","ref":"aaaaaaa1"}',
  'the payload is exactly {"event","ref"} with the first 8 characters of the id'
);
select is(
  private.staff_alert_payload('contact.limit'),
  '{"event":"contact.limit","ref":null}',
  'an alert about no row has a null ref'
);
select is(
  (select array_agg(k order by k) from jsonb_object_keys(private.staff_alert_payload('contact.overdue', gen_random_uuid())::jsonb) as k),
  array['event', 'ref'],
  'the payload has exactly the keys event and ref'
);
select is(
  (select array_agg(format_type(t, null) order by o) from unnest((select proargtypes::oid[] from pg_proc where oid = 'private.staff_alert_payload(text, uuid)'::regprocedure)) with ordinality as a (t, o)),
  array['text', 'uuid'],
  'the payload builder takes an event name and an id, nothing else: it cannot see any other column'
);
select throws_ok(
  $$ select private.staff_alert_payload('contact.whatever', gen_random_uuid()) $$,
  '22023', null,
  'an unknown event is refused'
);
select lives_ok(
  $$ select private.real_send_staff_alert('{"event":"contact.new","ref":"00000000"}') $$,
  'the real sender works without pg_net and Vault (pg_notify only)'
);

-- A row full of distinctive values: the alert its insert sends carries none of them.
delete from private.test_alerts;
set local role anon;
select lives_ok(
  format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, gen_random_bytes(32))',
         'b0b0b0b0-1111-4111-8111-111111111111', pg_temp.armor(), pg_temp.key_id()),
  'anon inserts a row'
);
reset role;
select results_eq(
  $$ select payload from private.test_alerts order by n $$,
  $$ values ('{"event":"contact.new","ref":"b0b0b0b0"}'::text) $$,
  'the AFTER INSERT trigger sends one alert: the event and the ref, nothing else'
);
select is(
  (select count(*)::int
     from public.contact_submissions as c, jsonb_each_text(to_jsonb(c) - 'id' - 'status') as col, private.test_alerts as a
    where c.id = 'b0b0b0b0-1111-4111-8111-111111111111' and col.value is not null and position(col.value in a.payload) > 0),
  0,
  'no column value of the row (sealed, key_id, created_at…) appears in its alert'
);

-- Overdue: alerted once, 20 hours after arrival, only while still new.
delete from private.test_alerts;
select pg_temp.add('cccccccc-0001-4000-8000-000000000001', 'new', timestamptz '2026-06-01 12:00Z' - interval '21 hours');
select pg_temp.add('cccccccc-0002-4000-8000-000000000002', 'new', timestamptz '2026-06-01 12:00Z' - interval '19 hours');
select pg_temp.add('cccccccc-0003-4000-8000-000000000003', 'new', timestamptz '2026-06-01 12:00Z' - interval '22 hours', overdue_alerted_at => timestamptz '2026-06-01 11:00Z');
select pg_temp.add('cccccccc-0004-4000-8000-000000000004', 'responded', timestamptz '2026-06-01 12:00Z' - interval '30 hours', timestamptz '2026-06-01 11:00Z');
delete from private.test_alerts;
select is(private.alert_overdue_submissions('2026-06-01 12:00Z'), 1, 'the sweep alerts for the one row still new after 20 hours and not yet alerted');
select results_eq(
  $$ select payload from private.test_alerts $$,
  $$ values ('{"event":"contact.overdue","ref":"cccccccc"}'::text) $$,
  'the overdue alert carries the event and the ref only'
);
select is(
  (select overdue_alerted_at from public.contact_submissions where id = 'cccccccc-0001-4000-8000-000000000001'),
  timestamptz '2026-06-01 12:00Z',
  'the row records when it was alerted'
);
select is(private.alert_overdue_submissions('2026-06-01 12:15Z'), 0, 'a second sweep alerts nobody again');
delete from public.contact_submissions where id::text like 'cccccccc%';

-- ---------------------------------------------------------------- the 24-hour watch

select pg_temp.add('dddddddd-0001-4000-8000-000000000001', 'new', now() - interval '25 hours');
select pg_temp.add('dddddddd-0002-4000-8000-000000000002', 'new', now() - interval '30 hours');
select pg_temp.add('dddddddd-0003-4000-8000-000000000003', 'new', now() - interval '23 hours');
select pg_temp.add('dddddddd-0004-4000-8000-000000000004', 'responded', now() - interval '40 hours', now() - interval '39 hours');

set local role contact_staff;
select results_eq(
  $$ select id::text, ref, waiting from private.overdue_submissions $$,
  $$ values ('dddddddd-0002-4000-8000-000000000002', 'dddddddd', interval '30 hours'),
            ('dddddddd-0001-4000-8000-000000000001', 'dddddddd', interval '25 hours') $$,
  'the overdue view lists rows still new after 24 hours, oldest first'
);
reset role;

delete from private.response_log;
insert into private.response_log (responded_on, response_time)
values (current_date, '1 hour'), (current_date, '2 hours'), (current_date, '3 hours'), (current_date, '30 hours'),
       (current_date, null), (current_date - 100, '90 hours');
set local role contact_staff;
select results_eq(
  $$ select responded, p50, p90, within_24h, closed_unanswered from private.response_times $$,
  $$ values (4, interval '2 hours 30 minutes', interval '21 hours 54 minutes', 0.750, 1) $$,
  'response times over the last 90 days count answers only; an inquiry closed unanswered is counted apart'
);
reset role;

set local role anon;
select throws_ok('select * from private.overdue_submissions', '42501', 'permission denied for schema private', 'anon cannot read the overdue view');
select throws_ok('select * from private.response_times', '42501', 'permission denied for schema private', 'anon cannot read the response times');
reset role;
set local role authenticated;
select throws_ok('select * from private.overdue_submissions', '42501', 'permission denied for schema private', 'authenticated cannot read the overdue view');
reset role;
delete from public.contact_submissions where id::text like 'dddddddd%';

-- ---------------------------------------------------------------- purge (at a fixed time)

select pg_temp.add('eeeeeeee-0001-4000-8000-000000000001', 'completed', timestamptz '2026-06-01 12:00Z' - interval '30 days', timestamptz '2026-06-01 12:00Z' - interval '29 days', timestamptz '2026-06-01 12:00Z' - interval '25 hours');
select pg_temp.add('eeeeeeee-0002-4000-8000-000000000002', 'completed', timestamptz '2026-06-01 12:00Z' - interval '30 days', timestamptz '2026-06-01 12:00Z' - interval '29 days', timestamptz '2026-06-01 12:00Z' - interval '23 hours');
select pg_temp.add('eeeeeeee-0003-4000-8000-000000000003', 'declined', timestamptz '2026-06-01 12:00Z' - interval '2 days', timestamptz '2026-06-01 12:00Z' - interval '25 hours', timestamptz '2026-06-01 12:00Z' - interval '25 hours');
select pg_temp.add('eeeeeeee-0004-4000-8000-000000000004', 'new', timestamptz '2026-06-01 12:00Z' - interval '91 days');
select pg_temp.add('eeeeeeee-0005-4000-8000-000000000005', 'new', timestamptz '2026-06-01 12:00Z' - interval '89 days');
select pg_temp.add('eeeeeeee-0006-4000-8000-000000000006', 'engaged', timestamptz '2026-06-01 12:00Z' - interval '60 days', timestamptz '2026-06-01 12:00Z' - interval '59 days');
select pg_temp.add('eeeeeeee-0007-4000-8000-000000000007', 'responded', timestamptz '2026-06-01 12:00Z' - interval '91 days', timestamptz '2026-06-01 12:00Z' - interval '90 days');

select is(
  private.purge_contact_submissions('2026-06-01 12:00Z'),
  4,
  'the purge returns the number of rows it deleted'
);
select is(
  array(select id::text from public.contact_submissions where id::text like 'eeeeeeee%' order by id),
  array['eeeeeeee-0002-4000-8000-000000000002', 'eeeeeeee-0005-4000-8000-000000000005', 'eeeeeeee-0006-4000-8000-000000000006'],
  'completed 25 h ago, declined 25 h ago, 91-day-old new and 91-day-old responded: gone; completed 23 h ago, 89-day-old new, 60-day-old engaged: kept'
);
select is(private.purge_contact_submissions('2026-06-01 12:00Z'), 0, 'a second purge at the same time deletes nothing');
update private.contact_settings set retention_days = 30;
select is(private.purge_contact_submissions('2026-06-01 12:00Z'), 2, 'the retention cap comes from the settings row (30 days: the 89- and 60-day-old rows go)');
select is(
  (select count(*)::int from public.contact_submissions where id::text like 'aaaaaaa%'),
  4,
  'rows of today are untouched by a purge at an earlier time'
);
select is(
  (select count(*)::int from private.response_log where responded_on < (timestamptz '2026-06-01 12:00Z' at time zone 'UTC')::date - 90),
  0,
  'the purge trims the response log to 90 days'
);

-- ---------------------------------------------------------------- pg_cron

select case when exists (select from pg_extension where extname = 'pg_cron')
  then results_eq(
    $$ select jobname::text collate "default", schedule::text collate "default", command::text collate "default" from cron.job
        where jobname in ('contact-purge', 'contact-overdue-alerts', 'cron-history-cleanup') order by jobname $$,
    $$ values ('contact-overdue-alerts', '*/15 * * * *', 'select private.alert_overdue_submissions()'),
              ('contact-purge', '17 * * * *', 'select private.purge_contact_submissions()'),
              ('cron-history-cleanup', '47 3 * * *', 'delete from cron.job_run_details where end_time < now() - interval ''7 days''') $$,
    'pg_cron has the purge, the overdue sweep and the history cleanup, with their schedules and commands'
  )
  else skip('pg_cron is not installed in this database (tests/db/run-pgtap.sh covers it)', 1)
end;
select case when exists (select from pg_extension where extname = 'pg_cron')
  then is(private.schedule_contact_jobs(), 3, 'scheduling again is idempotent (upsert by job name)')
  else is(private.schedule_contact_jobs(), 0, 'without pg_cron, scheduling skips cleanly')
end;

select * from finish();
rollback;
