-- The sealed conversation from every side: anon (no table, two functions, a wrong or
-- malformed token, guessing, flooding), a signed-in user not on the staff list, staff before and
-- after the second factor, staff removed, service_role; a closed thread, a replayed message, the
-- staff alert, the purge. Requests are simulated as PostgREST makes them: `set local role`, the
-- token's claims in request.jwt.claims, cf-connecting-ip in request.headers, and each call in its
-- own subtransaction, so a refusal rolls back what that call did (PostgREST rolls back the
-- request) while an answer that is not an error (null, or a 404 set through response.status)
-- keeps what it counted.
begin;

select plan(109);

\ir fixtures/sealed-row.psql

-- Staff alerts land in private.test_alerts instead of being sent.
\ir fixtures/captured-alerts.psql
\ir fixtures/staff-request.psql

\ir fixtures/mailbox.psql

-- Inquiries: A (mailbox 1) for the conversation, B (mailbox 2) to be closed,
-- C (mailbox 3) for the per-mailbox limits, D (mailbox 7) for the status buttons, F (mailbox 9)
-- closed unanswered.
insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values
  ('6f2b3c4d-0000-4000-8000-00000000000f', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(9)),
  ('1a2b3c4d-0000-4000-8000-00000000000a', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(1)),
  ('2b2b3c4d-0000-4000-8000-00000000000b', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(2)),
  ('3c2b3c4d-0000-4000-8000-00000000000c', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(3)),
  ('4d2b3c4d-0000-4000-8000-00000000000d', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(7));
-- Their creation a minute ago, so the thread's own messages come after the inquiry.
update public.contact_submissions set created_at = now() - interval '1 minute';

-- How many rows a status update by the current request changes (RLS filters silently).
create function pg_temp.set_status(id uuid, status text) returns integer language plpgsql as $$
declare changed integer;
begin
  update public.contact_submissions set status = set_status.status where contact_submissions.id = set_status.id;
  get diagnostics changed = row_count;
  return changed;
end
$$;

-- One request from `address` (null: no cf-connecting-ip), answered as PostgREST would: the status
-- (response.status, or 200) and the function's JSON, or SQLSTATE, message and detail of the error.
create function pg_temp.call(sql text, address text default '203.0.113.9') returns text language plpgsql as $$
declare
  result text;
  message text;
  detail text;
begin
  perform set_config('request.headers',
    case when address is null then '{"user-agent":"pgTAP"}' else json_build_object('cf-connecting-ip', address)::text end, true);
  perform set_config('response.status', '', true);
  if sql ~* '^\s*select' then
    execute sql into result;
  else
    execute sql;
  end if;
  return coalesce(nullif(current_setting('response.status', true), ''), '200') || ' ' || coalesce(result, 'null');
exception when others then
  get stacked diagnostics message = message_text, detail = pg_exception_detail;
  return sqlstate || ' ' || message || coalesce(' ' || nullif(detail, ''), '');
end
$$;

create function pg_temp.read(n integer, address text default '203.0.113.9') returns text language sql as $$
  select pg_temp.call(format('select public.read_thread(%L)', pg_temp.token(n)), address)
$$;
create function pg_temp.add(n integer, id uuid default gen_random_uuid(), address text default '203.0.113.9', sealed text default null)
returns text language sql as $$
  select pg_temp.call(format('select public.add_to_thread(%L, %L, %L)', pg_temp.token(n), id, coalesce(sealed, pg_temp.armor())), address)
$$;
-- The thread a read returns, as JSON (the caller checks the status first).
create function pg_temp.thread(n integer, address text default '203.0.113.9') returns jsonb language sql as $$
  select substring(pg_temp.read(n, address) from 5)::jsonb
$$;

-- ---------------------------------------------------------------- structure

select has_table('public', 'contact_messages', 'the thread''s table exists');
select col_type_is('public', 'contact_submissions', 'mailbox_hash', 'bytea', 'an inquiry holds its mailbox as a hash (bytea)');
select fk_ok('public', 'contact_messages', 'submission_id', 'public', 'contact_submissions', 'id', 'a message belongs to an inquiry');
select is(
  (select confdeltype::text from pg_constraint where conname = 'contact_messages_submission_id_fkey'), 'c',
  'and is deleted with it (ON DELETE CASCADE)'
);
select table_privs_are('public', 'contact_messages', 'anon', array[]::text[], 'anon has no right on the thread''s table');
select table_privs_are('public', 'contact_messages', 'authenticated', array['SELECT'], 'authenticated may read the table (RLS decides the rows) and nothing else table-wide');
select results_eq(
  $$ select column_name::text collate "default" from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_messages'
       and grantee = 'authenticated' and privilege_type in ('INSERT', 'UPDATE', 'DELETE') order by 1 $$,
  $$ values ('id'), ('sealed'), ('submission_id') $$,
  'authenticated may insert id, submission_id and sealed, and nothing else'
);
select results_eq(
  $$ select column_name::text collate "default" from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_submissions' and grantee = 'anon' order by 1 $$,
  $$ values ('id'), ('key_id'), ('mailbox_hash'), ('sealed') $$,
  'anon may insert the sealed row with its mailbox hash'
);
select is(
  (select bool_or(prosecdef) from pg_proc where oid in ('public.read_thread(text)'::regprocedure, 'public.add_to_thread(text, uuid, text)'::regprocedure)),
  false, 'the two functions in the API''s schema run with the caller''s rights'
);
select ok(
  has_function_privilege('anon', 'public.read_thread(text)', 'EXECUTE')
  and has_function_privilege('anon', 'public.add_to_thread(text, uuid, text)', 'EXECUTE'),
  'anon may call both'
);
select ok(
  not has_function_privilege('authenticated', 'public.read_thread(text)', 'EXECUTE')
  and not has_function_privilege('authenticated', 'public.add_to_thread(text, uuid, text)', 'EXECUTE')
  and not has_schema_privilege('authenticated', 'visitor_access', 'USAGE'),
  'a signed-in user may not (the visitor''s functions are the visitor''s)'
);
select functions_are('visitor_access', array['add_to_thread', 'read_thread'], 'the privileged part is the two functions, in a schema the API does not expose');
select ok(
  not has_function_privilege('anon', 'private.open_mailbox(text)', 'EXECUTE')
  and not has_schema_privilege('anon', 'private', 'USAGE'),
  'anon cannot reach the lookup or the limits directly'
);
select results_eq(
  $$ select miss_limit, miss_window, read_limit, read_window, write_limit, write_window from private.thread_limits $$,
  $$ values (10, interval '10 minutes', 60, interval '1 hour', 10, interval '1 hour') $$,
  'the limits hold the documented defaults: 10 misses per 10 minutes per network, 60 reads and 10 messages an hour per mailbox'
);
select is_empty(
  $$ select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid))
       from pg_proc as p join pg_namespace as n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prosecdef
        and (has_function_privilege('anon', p.oid, 'EXECUTE') or has_function_privilege('authenticated', p.oid, 'EXECUTE')) $$,
  'still no security definer function in public that anon or authenticated may execute'
);

-- ---------------------------------------------------------------- anon: the table

select pg_temp.request_as('anon');
select throws_ok('select count(*) from public.contact_messages', '42501', null, 'anon reads no message');
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  '42501', null, 'nor writes one directly'
);
select is(
  pg_temp.call(format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, %L)',
    '5e2b3c4d-0000-4000-8000-00000000000e', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(5)), '198.18.0.1'),
  '200 null', 'a visitor''s sealed row with its mailbox hash is let in, as the form sends it'
);
select is(
  pg_temp.call(format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, %L)',
    '5e2b3c4d-0000-4000-8000-00000000000e', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(5)), '198.18.1.1'),
  '23505 duplicate key value violates unique constraint "contact_submissions_pkey"',
  'its replay answers the primary key (409, already received), not the mailbox'
);
select is(
  pg_temp.call(format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (gen_random_uuid(), %L, %L, %L)',
    pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(5)), '198.18.2.1'),
  '23505 duplicate key value violates unique constraint "contact_submissions_mailbox_hash_key"',
  'one inquiry per mailbox'
);
select matches(
  pg_temp.call(format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (gen_random_uuid(), %L, %L, %L)',
    pg_temp.armor(), pg_temp.key_id(), '\x00ff'::bytea), '198.18.3.1'),
  '^23514 .*"contact_submissions_mailbox_hash_check"',
  'a mailbox hash is 32 bytes'
);
select matches(
  pg_temp.call(format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, responded_by) values (gen_random_uuid(), %L, %L, gen_random_bytes(32), %L)',
    pg_temp.armor(), pg_temp.key_id(), 'ada@example.com'), '198.18.4.1'),
  '^42501 ', 'a visitor cannot say who answered'
);
reset role;

-- ---------------------------------------------------------------- anon: the thread

select pg_temp.request_as('anon');
select is(pg_temp.read(1) ~ '^200 \{', true, 'the right token opens the thread (200)');
select is(
  pg_temp.thread(1) - 'messages',
  '{"reference": "1a2b3c4d", "status": "received", "delete_by": null}'::jsonb,
  'with the inquiry''s reference (the first 8 characters of its id) and its status'
);
select is(
  pg_temp.thread(1) -> 'messages',
  jsonb_build_array(jsonb_build_object(
    'id', '1a2b3c4d-0000-4000-8000-00000000000a', 'direction', 'visitor', 'sealed', pg_temp.armor(),
    'created_at', now() - interval '1 minute')),
  'and the inquiry itself as its first message'
);
select is(pg_temp.read(99), '200 null', 'a token no inquiry has answers null (200), not an error');
select matches(
  pg_temp.call(format('select public.read_thread(%L)', upper(pg_temp.token(1)))),
  '^PGRST \{"code":"mailbox_token_invalid",.*\} \{"status":400',
  'an uppercase token is malformed: PGRST → 400 mailbox_token_invalid'
);
select matches(
  pg_temp.call(format('select public.add_to_thread(%L, gen_random_uuid(), %L)', left(pg_temp.token(1), 63), pg_temp.armor())),
  '^PGRST \{"code":"mailbox_token_invalid",.*\} \{"status":400',
  'so is a short one, for a write too'
);
select matches(pg_temp.call('select public.read_thread(null)'), '^PGRST \{"code":"mailbox_token_invalid"', 'and a missing one');
reset role;

delete from private.test_alerts;
select pg_temp.request_as('anon');
select matches(
  pg_temp.add(1, 'a1000000-0000-4000-8000-000000000001'),
  '^200 \{"id": "a1000000-0000-4000-8000-000000000001", "created_at": "[^"]+"\}$',
  'the visitor adds a message: {id, created_at}'
);
reset role;
select results_eq(
  $$ select direction, author_email, created_at from public.contact_messages where id = 'a1000000-0000-4000-8000-000000000001' $$,
  $$ values ('visitor'::text, null::text, now()) $$,
  'stored as the visitor''s, with no author and the database''s time'
);
select is(
  (select awaiting_reply_since from public.contact_submissions where id = '1a2b3c4d-0000-4000-8000-00000000000a'), now(),
  'the inquiry now awaits a reply'
);
select results_eq(
  $$ select payload from private.test_alerts $$,
  $$ values ('{"event":"contact.message","ref":"1a2b3c4d"}'::text) $$,
  'and staff are alerted with the event and the reference, nothing else'
);
update public.contact_submissions set awaiting_reply_since = now() - interval '30 seconds' where id = '1a2b3c4d-0000-4000-8000-00000000000a';
select pg_temp.request_as('anon');
select matches(pg_temp.add(1, 'a1000000-0000-4000-8000-000000000002'), '^200 ', 'a second message');
reset role;
select is(
  (select awaiting_reply_since from public.contact_submissions where id = '1a2b3c4d-0000-4000-8000-00000000000a'), now() - interval '30 seconds',
  'keeps the time the first unanswered one arrived'
);
select is((select count(*)::int from private.test_alerts), 2, 'and alerts again');
select pg_temp.request_as('anon');
select matches(
  pg_temp.add(1, 'a1000000-0000-4000-8000-000000000001'),
  '^23505 duplicate key value violates unique constraint "contact_messages_pkey"',
  'a replayed message id answers 23505 (409), which the sender reads as delivered'
);
select matches(
  pg_temp.add(1, sealed => 'hello'),
  '^23514 .*"contact_messages_sealed_format_check"',
  'a message that is not an age armor is refused (400)'
);
select matches(
  pg_temp.add(1, sealed => pg_temp.armor() || repeat('A', 51200)),
  '^23514 .*"contact_messages_sealed_bounds_check"',
  'so is one over 51,200 characters'
);
select is(
  pg_temp.add(98),
  '404 {"code": "thread_not_found", "hint": null, "details": null, "message": "No conversation has this receipt."}',
  'a message to a mailbox no inquiry has: 404 thread_not_found (through response.status, so the miss is kept)'
);
reset role;
-- Later messages, as they arrive over time (one transaction here, so times are set by hand).
update public.contact_messages set created_at = now() - interval '20 seconds' where id = 'a1000000-0000-4000-8000-000000000002';
update public.contact_messages set created_at = now() - interval '40 seconds' where id = 'a1000000-0000-4000-8000-000000000001';
select pg_temp.request_as('anon');
select results_eq(
  $$ select m ->> 'id', m ->> 'direction' from jsonb_array_elements(pg_temp.thread(1) -> 'messages') as m $$,
  $$ values ('1a2b3c4d-0000-4000-8000-00000000000a', 'visitor'), ('a1000000-0000-4000-8000-000000000001', 'visitor'), ('a1000000-0000-4000-8000-000000000002', 'visitor') $$,
  'the thread lists the inquiry, then its messages, oldest first'
);
reset role;

-- ---------------------------------------------------------------- signed in, not staff

select pg_temp.request_as('authenticated', 'b0000000-0000-4000-8000-00000000000b', 'aal2');
select is((select count(*)::int from public.contact_messages), 0, 'a user not on the staff list, even at aal2, reads no message');
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  '42501', 'new row violates row-level security policy for table "contact_messages"', 'and adds no reply'
);
select throws_ok(format('select public.read_thread(%L)', pg_temp.token(1)), '42501', null, 'nor calls the visitor''s functions');
reset role;

-- ---------------------------------------------------------------- staff, password only (aal1)

select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1');
select is((select count(*)::int from public.contact_messages), 0, 'staff before the second factor read no message');
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  '42501', 'new row violates row-level security policy for table "contact_messages"', 'and add no reply'
);
reset role;

-- ---------------------------------------------------------------- staff, second factor (aal2)

delete from private.test_alerts;
select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
select results_eq(
  $$ select id, direction, author_email from public.contact_messages where submission_id = '1a2b3c4d-0000-4000-8000-00000000000a' order by created_at $$,
  $$ values ('a1000000-0000-4000-8000-000000000001'::uuid, 'visitor'::text, null::text), ('a1000000-0000-4000-8000-000000000002', 'visitor', null) $$,
  'staff with the second factor read the thread'
);
select is(
  (select sealed from public.contact_messages where id = 'a1000000-0000-4000-8000-000000000001'), pg_temp.armor(),
  'and every column of it'
);
select results_eq(
  $$ select status, awaiting_reply_since from public.contact_submissions where id = '1a2b3c4d-0000-4000-8000-00000000000a' $$,
  $$ values ('new'::text, now() - interval '30 seconds') $$,
  'and see the inquiry waiting for an answer'
);
select throws_ok('select mailbox_hash from public.contact_submissions', '42501', null, 'but not its mailbox hash');
select lives_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values ('b1000000-0000-4000-8000-000000000001', '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  'staff add a sealed reply with id, submission_id and sealed'
);
select results_eq(
  $$ select direction, author_email, created_at from public.contact_messages where id = 'b1000000-0000-4000-8000-000000000001' $$,
  $$ values ('agency'::text, 'ada@example.com'::text, now()) $$,
  'which the database stamps: the agency''s, by the account in the token, at the database''s time'
);
select results_eq(
  $$ select status, responded_by, responded_at, awaiting_reply_since from public.contact_submissions where id = '1a2b3c4d-0000-4000-8000-00000000000a' $$,
  $$ values ('responded'::text, 'ada@example.com'::text, now(), null::timestamptz) $$,
  'the reply answers the inquiry: responded, by Ada, now, nothing awaiting'
);
select results_eq(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values ('b1000000-0000-4000-8000-000000000002', '1a2b3c4d-0000-4000-8000-00000000000a', %L) returning id, direction $$, pg_temp.armor()),
  $$ values ('b1000000-0000-4000-8000-000000000002'::uuid, 'agency'::text) $$,
  'and read the stored reply back (supabase-js .insert().select())'
);
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed, direction) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L, 'visitor') $$, pg_temp.armor()),
  '42501', null, 'staff cannot set the direction'
);
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed, author_email) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L, 'bob@example.com') $$, pg_temp.armor()),
  '42501', null, 'nor the author'
);
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed, created_at) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L, now() - interval '1 day') $$, pg_temp.armor()),
  '42501', null, 'nor the time'
);
select throws_ok(
  $$ update public.contact_messages set sealed = sealed where id = 'b1000000-0000-4000-8000-000000000001' $$,
  '42501', null, 'nor change a message'
);
select throws_ok($$ delete from public.contact_messages $$, '42501', null, 'nor delete one: the purge is the database''s job');
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values ('b1000000-0000-4000-8000-000000000001', '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  '23505', null, 'a resent reply answers 23505 (409): delivered'
);
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, 'hello'),
  '23514', null, 'a reply that is not an age armor is refused'
);
-- The inbox's status buttons (after answering on Telegram, say) record who too.
select is(pg_temp.set_status('4d2b3c4d-0000-4000-8000-00000000000d', 'engaged'), 1, 'staff move an inquiry from new to engaged');
select results_eq(
  $$ select responded_by, responded_at from public.contact_submissions where id = '4d2b3c4d-0000-4000-8000-00000000000d' $$,
  $$ values ('ada@example.com'::text, now()) $$,
  'and the database records who, with the time'
);
select throws_ok(
  $$ update public.contact_submissions set responded_by = 'bob@example.com' $$,
  '42501', null, 'staff cannot write who answered by hand'
);
-- "Completed" on an inquiry nobody answered is not an answer, and names nobody as answering.
select is(pg_temp.set_status('6f2b3c4d-0000-4000-8000-00000000000f', 'completed'), 1, 'staff close an inquiry nobody answered');
select results_eq(
  $$ select responded_by, responded_at from public.contact_submissions where id = '6f2b3c4d-0000-4000-8000-00000000000f' $$,
  $$ values (null::text, null::timestamptz) $$,
  'which records no answer and nobody as having answered'
);
reset role;
select is((select count(*)::int from private.test_alerts), 0, 'staff replies alert nobody');

-- A reply from the visitor, then staff close the inquiry from the inbox: nothing awaits any more.
select pg_temp.request_as('anon');
select matches(pg_temp.add(1), '^200 ', 'the visitor writes back');
reset role;
select isnt((select awaiting_reply_since from public.contact_submissions where id = '1a2b3c4d-0000-4000-8000-00000000000a'), null, 'the inquiry awaits a reply again');

-- ---------------------------------------------------------------- a closed thread

select pg_temp.request_as('anon');
select matches(pg_temp.add(2, 'c1000000-0000-4000-8000-000000000001'), '^200 ', 'a message in B before it closes');
reset role;
select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
update public.contact_submissions set status = 'completed' where id = '2b2b3c4d-0000-4000-8000-00000000000b';
select results_eq(
  $$ select status, awaiting_reply_since from public.contact_submissions where id = '2b2b3c4d-0000-4000-8000-00000000000b' $$,
  $$ values ('completed'::text, null::timestamptz) $$,
  'closing an inquiry leaves nothing awaiting'
);
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '2b2b3c4d-0000-4000-8000-00000000000b', %L) $$, pg_temp.armor()),
  'PGRST', '{"code":"thread_closed","message":"This conversation is closed: it takes no more messages and will be deleted soon.","details":null,"hint":null}',
  'staff cannot reply in a closed thread (409 thread_closed; reopen it first)'
);
reset role;
select pg_temp.request_as('anon');
select is(
  pg_temp.thread(2) - 'messages',
  jsonb_build_object('reference', '2b2b3c4d', 'status', 'closed', 'delete_by', now() + interval '25 hours'),
  'the visitor sees it closed, and by when the hourly purge deletes it (a day after closing, plus the hour between runs)'
);
select matches(
  pg_temp.add(2),
  '^PGRST \{"code":"thread_closed",.*\} \{"status":409',
  'and can add nothing: 409 thread_closed'
);
select matches(
  pg_temp.add(2, 'c1000000-0000-4000-8000-000000000001'),
  '^23505 duplicate key value violates unique constraint "contact_messages_pkey"',
  'a message sent before closing, resent, still answers 23505 (delivered), not closed'
);
reset role;

-- ---------------------------------------------------------------- guessing (per network)

select pg_temp.request_as('anon');
select is(
  (select count(*)::int from generate_series(100, 109) as n where pg_temp.read(n, '198.51.100.7') = '200 null'),
  10, '10 tokens that open nothing from 198.51.100.0/24 answer null'
);
select matches(
  pg_temp.read(130, '198.51.100.200'),
  '^PGRST \{"code":"thread_network_limit",.*\} \{"status":429,"headers":\{"Retry-After":"600"\}',
  'the 11th miss from that /24 in 10 minutes is refused with 429 and Retry-After'
);
select matches(pg_temp.add(130, address => '198.51.100.8'), '^PGRST \{"code":"thread_network_limit"',
  'and so is a write to a mailbox that does not exist');
select matches(pg_temp.read(1, '198.51.100.200'), '^200 \{',
  'a visitor with the right receipt reads their thread while their network is over the miss limit');
select matches(pg_temp.add(1, address => '198.51.100.8'), '^200 \{',
  '... and adds to it: a stranger on the network cannot lock them out');
select matches(pg_temp.read(130, '198.51.101.7'), '^200 null', 'the neighbouring /24 may still miss');
select is(
  (select count(*)::int from generate_series(110, 119) as n where pg_temp.add(n, address => '2001:db8:7:7::1') like '404 %'),
  10, 'writes to mailboxes that do not exist count as misses too (10 × 404 from one /64)'
);
select matches(pg_temp.read(131, '2001:db8:7:7::2'), '^PGRST \{"code":"thread_network_limit"', 'then that /64 is refused its next miss');
select matches(pg_temp.read(1, '2001:db8:7:7::2'), '^200 \{', '... never its right receipt');
select is(
  (select count(*)::int from generate_series(120, 129) as n where pg_temp.read(n, null) = '200 null'),
  10, 'without cf-connecting-ip, misses count too'
);
select matches(pg_temp.read(131, null), '^PGRST \{"code":"thread_network_limit"', 'in one shared bucket: guessing is limited on every path');
select matches(pg_temp.read(1, null), '^200 \{', '... and the right receipt still opens its thread');
reset role;
select is(
  (select count(*)::int from private.thread_rate_events as e where e::text ~ '198\.51|2001:db8|203\.0'),
  0, 'no address is stored, only keyed network hashes and times'
);
select is(
  (select count(*)::int from private.thread_rate_events where kind = 'miss' and network = private.network_bucket('198.51.100.1', now())),
  10, 'the /24''s misses are under its keyed bucket'
);
update private.thread_rate_events set at = at - interval '11 minutes'
 where kind = 'miss' and network = private.network_bucket('198.51.100.1', now());
select pg_temp.request_as('anon');
select is(pg_temp.read(131, '198.51.100.7'), '200 null', 'ten minutes later the network may miss again');
reset role;

-- ---------------------------------------------------------------- flooding (per mailbox)

select pg_temp.request_as('anon');
select is(
  (select count(*)::int from generate_series(1, 60) as i where pg_temp.read(3, format('100.64.%s.1', i)) like '200 {%'),
  60, '60 reads of one mailbox in an hour, from 60 networks, are answered'
);
select matches(
  pg_temp.read(3, '192.0.2.61'),
  '^PGRST \{"code":"thread_read_limit",.*\} \{"status":429,"headers":\{"Retry-After":"3600"\}',
  'the 61st is refused with 429 and Retry-After'
);
select matches(pg_temp.read(1, '192.0.2.62'), '^200 \{', 'another mailbox is not limited');
select is(
  (select count(*)::int from generate_series(1, 10) as i
    where pg_temp.add(3, format('d1000000-0000-4000-8000-%s', lpad(i::text, 12, '0'))::uuid, format('192.0.2.%s', 100 + i)) like '200 {%'),
  10, '10 messages to one mailbox in an hour are stored'
);
select matches(
  pg_temp.add(3, address => '192.0.2.200'),
  '^PGRST \{"code":"thread_write_limit",.*\} \{"status":429,"headers":\{"Retry-After":"3600"\}',
  'the 11th is refused with 429 and Retry-After'
);
select matches(
  pg_temp.add(3, 'd1000000-0000-4000-8000-000000000001', '192.0.2.201'),
  '^23505 duplicate key value violates unique constraint "contact_messages_pkey"',
  'a replay past the limit still answers 23505 (delivered), not 429'
);
reset role;
select is(
  (select count(*)::int from private.thread_rate_events where submission_id = '3c2b3c4d-0000-4000-8000-00000000000c'),
  70, 'refused requests counted nothing: 60 reads and 10 writes'
);

-- ---------------------------------------------------------------- removed staff, service_role

delete from private.staff_members where user_id = 'a0000000-0000-4000-8000-00000000000a';
select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
select is((select count(*)::int from public.contact_messages), 0, 'removed from the list, the same aal2 token reads no message');
select throws_ok(
  format($$ insert into public.contact_messages (id, submission_id, sealed) values (gen_random_uuid(), '1a2b3c4d-0000-4000-8000-00000000000a', %L) $$, pg_temp.armor()),
  '42501', 'new row violates row-level security policy for table "contact_messages"', 'and adds no reply'
);
reset role;
insert into private.staff_members (user_id) values ('a0000000-0000-4000-8000-00000000000a');

select count(*) as all_messages from public.contact_messages \gset
select pg_temp.request_as('service_role');
select is((select count(*)::int from public.contact_messages), :all_messages, 'service_role (staff tooling, the dashboard) reads every message');
select lives_ok(
  format($$ insert into public.contact_messages (id, submission_id, direction, author_email, sealed) values (gen_random_uuid(), '4d2b3c4d-0000-4000-8000-00000000000d', 'agency', 'tool@example.com', %L) $$, pg_temp.armor()),
  'and may add a message saying what it is'
);
select is(
  (select created_at from public.contact_messages where author_email = 'tool@example.com'), now(),
  'still at the database''s time'
);
reset role;

-- ---------------------------------------------------------------- the purge

delete from public.contact_submissions where id = '3c2b3c4d-0000-4000-8000-00000000000c';
select results_eq(
  $$ select (count(*) filter (where submission_id = '3c2b3c4d-0000-4000-8000-00000000000c'))::int,
            count(*) filter (where submission_id = '1a2b3c4d-0000-4000-8000-00000000000a') > 0
       from private.thread_rate_events $$,
  $$ values (0, true) $$,
  'an inquiry''s read and write counts go with it (another''s stay)'
);

select is(
  (select count(*)::int from public.contact_messages where submission_id = '2b2b3c4d-0000-4000-8000-00000000000b'), 1,
  'the closed inquiry has its message'
);
select is(private.purge_contact_submissions(now() + interval '25 hours'), 2, 'a day after closing, the purge deletes the closed inquiries (B, and F closed unanswered)');
select is(
  (select count(*)::int from public.contact_messages where submission_id = '2b2b3c4d-0000-4000-8000-00000000000b'), 0,
  'and its messages with it'
);
select pg_temp.request_as('anon');
select is(pg_temp.read(2, '192.0.2.250'), '200 null', 'its receipt opens nothing any more');
reset role;
select ok(
  (select count(*) from public.contact_messages where submission_id <> '2b2b3c4d-0000-4000-8000-00000000000b') > 0,
  'other threads are untouched'
);
insert into private.thread_rate_events (at, kind, network) values (now() - interval '25 hours', 'miss', repeat('a', 64));
select private.purge_contact_submissions();
select is(
  (select count(*)::int from private.thread_rate_events where at < now() - interval '24 hours'), 0,
  'the purge trims the thread''s rate events to 24 hours'
);

select * from finish();
rollback;
