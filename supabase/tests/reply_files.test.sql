-- Files in the conversation: the conversation-files bucket and its policies on
-- storage.objects, as Supabase Storage exercises them (see sealed_files.test.sql): an upload is
-- checked by inserting the object row as the requester, then rolled back; reads and lists run as
-- the requester with request.headers set (here the visitor's x-mailbox-token); deletes only
-- through Storage. Staff at aal2 upload under an open thread and read; the visitor reads only
-- the files of a stored agency message of their own thread, with the token; nobody else, nothing
-- more. Then the removal queue: with the inquiry, and orphans after a day.
begin;

select plan(69);

\ir fixtures/sealed-row.psql
\ir fixtures/staff-request.psql
\ir fixtures/mailbox.psql

-- Inquiries: A (mailbox 1) and D (mailbox 3) open, B (mailbox 2) closed.
insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values
  ('aaaaaaaa-0000-4000-8000-00000000000a', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(1)),
  ('bbbbbbbb-0000-4000-8000-00000000000b', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(2)),
  ('dddddddd-0000-4000-8000-00000000000d', pg_temp.armor(), pg_temp.key_id(), pg_temp.hash(3));
update public.contact_submissions set created_at = now() - interval '1 minute';
update public.contact_submissions set status = 'completed' where id = 'bbbbbbbb-0000-4000-8000-00000000000b';

-- An object name: inquiry A, B or D (any other letter: one that does not exist); message m (a
-- number); object o (a number).
create function pg_temp.obj(inquiry text, m integer, o integer) returns text language sql immutable as $$
  select format('%s/%s/%s',
    case inquiry when 'A' then 'aaaaaaaa-0000-4000-8000-00000000000a' when 'B' then 'bbbbbbbb-0000-4000-8000-00000000000b'
                 when 'D' then 'dddddddd-0000-4000-8000-00000000000d'
                 else 'eeeeeeee-0000-4000-8000-00000000000e' end,
    'ffffffff-0000-4000-8000-' || lpad(m::text, 12, '0'),
    '00000000-0000-4000-8000-' || lpad(o::text, 12, '0'))
$$;
create function pg_temp.message(m integer) returns uuid language sql immutable as $$
  select ('ffffffff-0000-4000-8000-' || lpad(m::text, 12, '0'))::uuid
$$;

-- Storage's permission check for an upload into conversation-files: 'ok', or SQLSTATE and message.
create function pg_temp.may_upload(name text, len bigint default 1000, role text default 'authenticated',
                                   sub uuid default 'a0000000-0000-4000-8000-00000000000a', aal text default 'aal2',
                                   bucket text default 'conversation-files')
returns text language plpgsql as $$
declare
  outcome text;
begin
  begin
    perform pg_temp.request_as(role, case when role = 'anon' then null else sub end, aal, '{"user-agent":"pgTAP"}');
    insert into storage.objects (bucket_id, name, version, metadata)
    values (bucket, name, 'check', jsonb_build_object('mimetype', 'application/octet-stream', 'contentLength', len));
    raise sqlstate 'P0099';
  exception
    when sqlstate 'P0099' then outcome := 'ok';
    when others then outcome := sqlstate || ' ' || sqlerrm;
  end;
  reset role;
  return outcome;
end
$$;

-- A whole staff upload: the check, then Storage's own insert as its superuser.
create function pg_temp.upload(name text, len bigint default 1000, created timestamptz default now())
returns text language plpgsql as $$
declare
  outcome text := pg_temp.may_upload(name, len);
begin
  if outcome = 'ok' then
    insert into storage.objects (bucket_id, name, version, created_at, metadata)
    values ('conversation-files', name, 'v1', created,
            jsonb_build_object('size', len, 'mimetype', 'application/octet-stream', 'contentLength', len));
  end if;
  return outcome;
end
$$;

-- The staff reply that lists the files, stored as the inbox stores it (last).
create function pg_temp.reply(inquiry uuid, m integer) returns void language sql as $$
  insert into public.contact_messages (id, submission_id, direction, author_email, sealed)
  values (pg_temp.message(m), inquiry, 'agency', 'ada@example.com', pg_temp.armor())
$$;

-- The names of conversation-files a visitor's request sees with `token` in x-mailbox-token
-- (null: no header; any other text: sent as is).
create function pg_temp.visitor_sees(token text) returns text[] language plpgsql as $$
declare seen text[];
begin
  perform pg_temp.request_as('anon', null, 'aal1',
    case when token is null then '{"user-agent":"pgTAP"}'::jsonb else jsonb_build_object('x-mailbox-token', token) end);
  select coalesce(array_agg(name order by name), '{}') into seen from storage.objects where bucket_id = 'conversation-files';
  reset role;
  return seen;
end
$$;

-- What a request as `role` sees, updates and deletes (deletes as Storage runs them).
create function pg_temp.seen(role text, sub uuid default null, aal text default 'aal1') returns integer language plpgsql as $$
declare n integer;
begin
  perform pg_temp.request_as(role, sub, aal, '{"user-agent":"pgTAP"}');
  select count(*) into n from storage.objects where bucket_id = 'conversation-files';
  reset role;
  return n;
end
$$;
create function pg_temp.changed(role text, sub uuid default null, aal text default 'aal1', token text default null)
returns integer language plpgsql as $$
declare n integer; m integer;
begin
  perform pg_temp.request_as(role, sub, aal,
    case when token is null then '{}'::jsonb else jsonb_build_object('x-mailbox-token', token) end);
  update storage.objects set metadata = '{}' where bucket_id = 'conversation-files';
  get diagnostics n = row_count;
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects where bucket_id = 'conversation-files';
  get diagnostics m = row_count;
  perform set_config('storage.allow_delete_query', 'false', true);
  reset role;
  return n + m;
end
$$;

-- ---------------------------------------------------------------- the bucket and its policies

select results_eq(
  $$ select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'conversation-files' $$,
  $$ values (false, 28311552::bigint, array['application/octet-stream']) $$,
  'the bucket is private, 27 MiB per object (the form''s sealed bound), application/octet-stream only'
);
select is((select file_size_limit from storage.buckets where id = 'conversation-files'),
  (select bytes_per_file_sealed from private.attachment_limits),
  'its size limit is the form''s sealed bound');
select policy_cmd_is('storage', 'objects', 'conversation_files_staff_insert', 'insert', 'staff''s upload policy is for INSERT');
select policy_roles_are('storage', 'objects', 'conversation_files_staff_insert', array['authenticated'], '... for authenticated only');
select policy_cmd_is('storage', 'objects', 'conversation_files_staff_select', 'select', 'staff''s read policy is for SELECT');
select policy_roles_are('storage', 'objects', 'conversation_files_staff_select', array['authenticated'], '... for authenticated only');
select policy_cmd_is('storage', 'objects', 'conversation_files_visitor_select', 'select', 'the visitor''s policy is for SELECT');
select policy_roles_are('storage', 'objects', 'conversation_files_visitor_select', array['anon'], '... for anon only');
select is_empty(
  $$ select policyname from pg_policies where schemaname = 'storage' and tablename = 'objects' and cmd in ('UPDATE', 'DELETE', 'ALL') $$,
  'no policy lets anyone update or delete an object (service_role bypasses RLS, through the Storage API)'
);
select ok(not has_function_privilege('anon', 'attachment_access.may_attach_reply(text, text, jsonb)', 'execute'),
  'anon cannot run the staff''s upload check');
select ok(not has_function_privilege('authenticated', 'attachment_access.may_read_reply_file(text, text)', 'execute'),
  'a signed-in user cannot run the visitor''s read check');
select ok(not has_schema_privilege('authenticated', 'private', 'USAGE'), 'private stays closed to authenticated');

-- ---------------------------------------------------------------- staff uploads

select is(pg_temp.upload(pg_temp.obj('A', 1, 1)), 'ok', 'staff at aal2 upload <inquiry>/<message>/<object> under an open thread');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 1)),
  '23505 duplicate key value violates unique constraint "bucketid_objname"',
  'the same name again conflicts: no overwrite (Storage: 409 Duplicate)');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 1000, 'authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1'),
  '42501 new row violates row-level security policy for table "objects"', 'staff without the second factor (aal1) upload nothing');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 1000, 'authenticated', 'b0000000-0000-4000-8000-00000000000b'),
  '42501 new row violates row-level security policy for table "objects"', 'a signed-in user who is not staff uploads nothing, even at aal2');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 1000, 'anon'),
  '42501 new row violates row-level security policy for table "objects"', 'anon uploads nothing into the bucket');
select is(pg_temp.may_upload(pg_temp.obj('B', 1, 2)),
  '42501 new row violates row-level security policy for table "objects"', 'nothing under a closed inquiry');
select is(pg_temp.may_upload(pg_temp.obj('E', 1, 2)),
  '42501 new row violates row-level security policy for table "objects"', 'nothing under an inquiry that does not exist');
select is(pg_temp.may_upload('aaaaaaaa-0000-4000-8000-00000000000a/00000000-0000-4000-8000-000000000002'),
  '42501 new row violates row-level security policy for table "objects"', 'no name without the message''s folder');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2) || '/x'),
  '42501 new row violates row-level security policy for table "objects"', 'no deeper path');
select is(pg_temp.may_upload('aaaaaaaa-0000-4000-8000-00000000000a/ffffffff-0000-4000-8000-000000000001/report.pdf'),
  '42501 new row violates row-level security policy for table "objects"', 'no file name in the object''s name');
select is(pg_temp.may_upload(upper(pg_temp.obj('A', 1, 2))),
  '42501 new row violates row-level security policy for table "objects"', 'lowercase uuids only');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 0),
  '42501 new row violates row-level security policy for table "objects"', 'no empty object');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), null),
  '42501 new row violates row-level security policy for table "objects"', 'no object without a declared length');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 28311553),
  '42501 Each file may be at most 28311552 bytes once sealed (limit: 26214400 bytes of plaintext per file).',
  'a file over the sealed bound is refused with its sentence');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 28311552), 'ok', 'a file at the bound is accepted');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 2), 1000, 'authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2', 'contact-attachments'),
  '42501 new row violates row-level security policy for table "objects"', 'staff still upload nothing into the form''s bucket');

-- Five files per reply.
select is(pg_temp.upload(pg_temp.obj('A', 1, n)), 'ok', format('file %s of the reply is accepted', n))
  from generate_series(2, 5) as n;
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 6)),
  '42501 Too many files for one reply (limit: 5 files).', 'the 6th file of one reply is refused with its sentence');
select is(pg_temp.upload(pg_temp.obj('A', 2, 1)), 'ok', 'another reply has its own five');

-- The reply is stored last; then its folder is closed.
select lives_ok($$ select pg_temp.reply('aaaaaaaa-0000-4000-8000-00000000000a', 1) $$, 'the reply listing them is stored');
select is(pg_temp.may_upload(pg_temp.obj('A', 1, 9)),
  '42501 new row violates row-level security policy for table "objects"', 'no upload for a reply already stored');

-- ---------------------------------------------------------------- the visitor reads with the token

select is(pg_temp.visitor_sees(null), '{}'::text[], 'anon without the token reads and lists nothing');
select is(pg_temp.visitor_sees(pg_temp.token(9)), '{}'::text[], 'a token that opens no mailbox: nothing');
select is((select count(*)::int from private.thread_rate_events where kind = 'miss'), 1,
  '... and it counts one miss, as a wrong receipt does, however many objects the request was asked about');
-- At its network's limit (here the shared bucket of requests without cf-connecting-ip): the right
-- token still reads, a wrong one reads nothing and counts nothing more.
update private.thread_limits set miss_limit = 1;
select set_config('attachment_access.miss_counted', '', true);
select is(array_length(pg_temp.visitor_sees(pg_temp.token(1)), 1), 5,
  'the right token reads its thread''s files while its network is over the miss limit');
select is(pg_temp.visitor_sees(pg_temp.token(8)), '{}'::text[], 'a wrong one at the limit reads nothing');
select is((select count(*)::int from private.thread_rate_events where kind = 'miss'), 1, '... and is not counted');
update private.thread_limits set miss_limit = 10;
select is(pg_temp.visitor_sees('not-a-token'), '{}'::text[], 'a malformed token: nothing');
select is(pg_temp.visitor_sees(upper(pg_temp.token(1))), '{}'::text[], 'the token in capitals: nothing (as the thread functions)');
select is(pg_temp.visitor_sees(pg_temp.token(1)),
  (select array_agg(pg_temp.obj('A', 1, n) order by pg_temp.obj('A', 1, n)) from generate_series(1, 5) as n),
  'with the token: exactly the files of the stored reply (not those of a reply not stored yet)');
select is(pg_temp.visitor_sees(pg_temp.token(3)), '{}'::text[], 'another thread''s token sees none of them');
select is(pg_temp.visitor_sees(pg_temp.token(2)), '{}'::text[], 'nor does a closed thread''s');

-- A visitor's own message names no file the visitor may read here (only the agency's do), and a
-- file planted under another inquiry's message stays hidden.
insert into public.contact_messages (id, submission_id, direction, sealed)
values (pg_temp.message(7), 'aaaaaaaa-0000-4000-8000-00000000000a', 'visitor', pg_temp.armor());
insert into storage.objects (bucket_id, name, version, metadata) values
  ('conversation-files', pg_temp.obj('A', 7, 1), 'v1', '{"size": 10}'),
  ('conversation-files', 'dddddddd-0000-4000-8000-00000000000d/ffffffff-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000001', 'v1', '{"size": 10}');
select is(array_length(pg_temp.visitor_sees(pg_temp.token(1)), 1), 5,
  'the token still reads only the agency reply''s five files');
select is(pg_temp.visitor_sees(pg_temp.token(3)), '{}'::text[],
  'a file named under thread D but for a message of thread A is not D''s to read');

select is(pg_temp.changed('anon', null, 'aal1', pg_temp.token(1)), 0, 'the visitor updates and deletes nothing, even with the token');
select is(pg_temp.changed('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2'), 0, 'staff update and delete nothing');
select throws_ok(
  $$ delete from storage.objects where bucket_id = 'conversation-files' $$,
  '42501', 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
  'nobody deletes rows of storage.objects directly (Storage''s trigger)'
);

-- ---------------------------------------------------------------- staff read

select is(pg_temp.seen('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2'), 8,
  'staff at aal2 read every object of the bucket (download)');
select is(pg_temp.seen('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1'), 0, 'staff at aal1 read nothing');
select is(pg_temp.seen('authenticated', 'b0000000-0000-4000-8000-00000000000b', 'aal2'), 0, 'a user not on the staff list reads nothing');
select is(pg_temp.seen('anon'), 0, 'anon without a token reads nothing of the bucket');
select is((select count(*)::int from storage.objects where bucket_id = 'contact-attachments'), 0,
  'nothing here went into the form''s bucket');

-- ---------------------------------------------------------------- removal

-- Orphans: a day-old upload whose reply never came is queued; a fresh one (a reply being sent)
-- is not; nor a day-old file of a stored reply.
select is(pg_temp.upload(pg_temp.obj('D', 3, 1), 1000, now() - interval '25 hours'), 'ok', 'an upload 25 hours ago whose reply never came');
select is(pg_temp.upload(pg_temp.obj('D', 4, 1)), 'ok', 'a fresh upload whose reply is on its way');
select is(pg_temp.upload(pg_temp.obj('D', 5, 1), 1000, now() - interval '25 hours'), 'ok', 'an upload 25 hours ago ...');
select lives_ok($$ select pg_temp.reply('dddddddd-0000-4000-8000-00000000000d', 5) $$, '... whose reply was stored');
select is(private.purge_contact_submissions(), 0, 'the purge runs (no inquiry is due)');
select results_eq(
  $$ select name from public.pending_attachment_removals() where bucket_id = 'conversation-files' order by name $$,
  $$ values (pg_temp.obj('D', 3, 1)) $$,
  'only the day-old orphan is queued for removal'
);

-- An inquiry purged (here at the retention cap): every file of its thread is queued at once.
update public.contact_submissions set created_at = now() - interval '100 days' where id = 'aaaaaaaa-0000-4000-8000-00000000000a';
select is(private.purge_contact_submissions(), 1, 'the purge deletes the inquiry');
select is(
  (select count(*)::int from public.pending_attachment_removals() where name like 'aaaaaaaa-%'),
  (select count(*)::int from storage.objects where name like 'aaaaaaaa-%'),
  'every object of its thread is queued for removal through the Storage API'
);
select is((select count(*)::int from public.pending_attachment_removals() where name like 'aaaaaaaa-%'), 7,
  '... the six files uploaded for two replies, and the one planted beside them');

-- Storage's removal takes them off the queue.
set local storage.allow_delete_query = 'true';
delete from storage.objects
 where (bucket_id, name) in (select bucket_id, name from public.pending_attachment_removals());
set local storage.allow_delete_query = 'false';
select is((select count(*)::int from public.pending_attachment_removals()), 0, 'once Storage has removed them, the queue is empty');
select is(
  (select array_agg(name order by name) from storage.objects where bucket_id = 'conversation-files'),
  array['dddddddd-0000-4000-8000-00000000000d/ffffffff-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000001',
        pg_temp.obj('D', 4, 1), pg_temp.obj('D', 5, 1)],
  'what stays: the fresh upload, the stored reply''s file, and the planted file (an hour old: not yet an orphan)'
);

-- A stored reply file is never replaced, not even by Storage's own upsert as its superuser.
select throws_ok(
  format($$ insert into storage.objects (bucket_id, name, version, metadata)
            values ('conversation-files', %L, 'v2', '{"size":1}')
            on conflict (bucket_id, name) do update set version = excluded.version, metadata = excluded.metadata $$,
         pg_temp.obj('D', 5, 1)),
  '23505', 'The object already exists: a stored file is never replaced.',
  'a second upload of a reply file''s name is refused (409 Duplicate), the first stays'
);

select * from finish();
rollback;
