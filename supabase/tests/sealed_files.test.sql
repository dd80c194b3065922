-- Sealed files: the contact-attachments bucket and the policies on storage.objects, as
-- Supabase Storage exercises them: an upload is first checked by inserting the object row as the
-- requester's role (anon, with its claims and request headers) in a transaction that is rolled
-- back, then stored by Storage's own insert; reads run as the requester; deletes only through
-- Storage, which sets storage.allow_delete_query. Then the limits, and the removal queue.
begin;

select plan(85);

\ir fixtures/sealed-row.psql

\ir fixtures/staff-request.psql

-- Storage's permission check for an upload by anon from `address` (null: no cf-connecting-ip):
-- the object row inserted as anon, then rolled back. 'ok', or SQLSTATE and message.
create function pg_temp.may_upload(name text, len bigint default 1000, address text default '198.51.100.7',
                                   bucket text default 'contact-attachments')
returns text language plpgsql as $$
declare
  outcome text;
begin
  perform set_config('request.headers',
    case when address is null then '{"user-agent":"pgTAP"}' else json_build_object('cf-connecting-ip', address)::text end, true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
  begin
    set local role anon;
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

-- The site's announcement of an upload (public.reserve_attachment through PostgREST) as anon
-- from `address`: 'ok', or the status, code and message PostgREST would answer.
create function pg_temp.reserve(name text, len bigint default 1000, address text default '198.51.100.7')
returns text language plpgsql as $$
declare
  outcome text;
  detail text;
begin
  perform set_config('request.headers',
    case when address is null then '{"user-agent":"pgTAP"}' else json_build_object('cf-connecting-ip', address)::text end, true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
  begin
    set local role anon;
    perform public.reserve_attachment(name, len);
    outcome := 'ok';
  exception
    when sqlstate 'PGRST' then
      get stacked diagnostics detail = pg_exception_detail;
      outcome := format('%s %s %s', detail::json ->> 'status', sqlerrm::json ->> 'code', sqlerrm::json ->> 'message');
    when others then outcome := sqlstate || ' ' || sqlerrm;
  end;
  reset role;
  return outcome;
end
$$;

-- A whole upload as the site makes it: reserved, then the check, then (if both passed) Storage's
-- own insert as its superuser, with the same request headers and the stored size.
create function pg_temp.upload(name text, len bigint default 1000, address text default '198.51.100.7',
                               created timestamptz default now())
returns text language plpgsql as $$
declare
  outcome text := pg_temp.reserve(name, len, address);
begin
  if outcome = 'ok' then
    outcome := pg_temp.may_upload(name, len, address);
  end if;
  if outcome = 'ok' then
    insert into storage.objects (bucket_id, name, version, created_at, metadata)
    values ('contact-attachments', name, 'v1', created,
            jsonb_build_object('size', len, 'mimetype', 'application/octet-stream', 'contentLength', len));
  end if;
  return outcome;
end
$$;

-- What a request as `role` sees, updates and deletes (deletes as Storage runs them).
create function pg_temp.seen(role text, sub uuid default null, aal text default 'aal1')
returns integer language plpgsql as $$
declare n integer;
begin
  perform pg_temp.request_as(role, sub, aal);
  select count(*) into n from storage.objects where bucket_id = 'contact-attachments';
  reset role;
  return n;
end
$$;
create function pg_temp.updated(role text, sub uuid default null, aal text default 'aal1')
returns integer language plpgsql as $$
declare n integer;
begin
  perform pg_temp.request_as(role, sub, aal);
  update storage.objects set metadata = '{}' where bucket_id = 'contact-attachments';
  get diagnostics n = row_count;
  reset role;
  return n;
end
$$;
create function pg_temp.deleted_through_storage(role text, sub uuid default null, aal text default 'aal1')
returns integer language plpgsql as $$
declare n integer;
begin
  perform pg_temp.request_as(role, sub, aal);
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects where bucket_id = 'contact-attachments';
  get diagnostics n = row_count;
  perform set_config('storage.allow_delete_query', 'false', true);
  reset role;
  return n;
end
$$;

-- ---------------------------------------------------------------- the bucket and its settings

select results_eq(
  $$ select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'contact-attachments' $$,
  $$ values (false, 28311552::bigint, array['application/octet-stream']) $$,
  'the bucket is private, 27 MiB per object, application/octet-stream only'
);
select results_eq(
  $$ select files_per_submission, bytes_per_file, bytes_per_file_sealed from private.attachment_limits $$,
  $$ values (5, 26214400::bigint, (select file_size_limit from storage.buckets where id = 'contact-attachments')) $$,
  'the limits: 5 files of 25 MiB of plaintext (the site''s ATTACHMENT_LIMITS), sealed bound = the bucket''s limit'
);
select ok(
  26214400 + 26214400 / 65536 * 16 + 1024 <= (select bytes_per_file_sealed from private.attachment_limits),
  'a 25 MiB file sealed with age (16 bytes per 64 KiB chunk, a header under 1 KiB) fits the sealed bound'
);
select policies_are('storage', 'objects',
  array['contact_attachments_anon_insert', 'contact_attachments_staff_select',
        'conversation_files_staff_insert', 'conversation_files_staff_select', 'conversation_files_visitor_select'],
  'storage.objects has exactly the sealed files'' policies: the form''s two (anon inserts, staff read), and the conversation''s three (reply_files.test.sql)');
select policy_cmd_is('storage', 'objects', 'contact_attachments_anon_insert', 'insert', 'anon''s policy is for INSERT only');
select policy_roles_are('storage', 'objects', 'contact_attachments_anon_insert', array['anon'], '... and for anon only');
select policy_cmd_is('storage', 'objects', 'contact_attachments_staff_select', 'select', 'staff''s policy is for SELECT only');
select policy_roles_are('storage', 'objects', 'contact_attachments_staff_select', array['authenticated'], '... and for authenticated only');
select table_privs_are('private', 'attachment_limits', 'anon', array[]::text[], 'anon has no right on the limits');
select table_privs_are('private', 'attachment_rate_events', 'anon', array[]::text[], 'anon has no right on the upload events');
select table_privs_are('private', 'attachment_removals', 'anon', array[]::text[], 'anon has no right on the removal queue');
select table_privs_are('private', 'attachment_reservations', 'anon', array[]::text[], 'anon has no right on the reservations');
select ok(has_function_privilege('anon', 'public.reserve_attachment(text, bigint)', 'execute')
          and not has_function_privilege('authenticated', 'public.reserve_attachment(text, bigint)', 'execute'),
  'anon announces its uploads through public.reserve_attachment (the form''s files only)');
select ok(not has_function_privilege('anon', 'public.pending_attachment_removals(integer)', 'execute')
          and not has_function_privilege('authenticated', 'public.pending_attachment_removals(integer)', 'execute')
          and has_function_privilege('service_role', 'public.pending_attachment_removals(integer)', 'execute'),
  'only service_role may read the removal queue');

-- ---------------------------------------------------------------- anon uploads

select is(pg_temp.upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000001'), 'ok',
  'anon uploads <submission>/<object> into the bucket');
select is((select count(*)::int from private.attachment_rate_events where bytes = 1000 and bucket ~ '^[0-9a-f]{64}$'), 1,
  'the stored object is counted: its bytes and the HMAC of its network, no name');
select is((select count(*)::int from private.attachment_reservations), 0,
  '... and its reservation gave way to that event');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000001'),
  '23505 duplicate key value violates unique constraint "bucketid_objname"',
  'the same name again conflicts: no overwrite (Storage: 409 Duplicate, which the site counts as stored)');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000001'), 'ok',
  'announcing a stored name again answers ok and reserves nothing');
select is((select count(*)::int from private.attachment_reservations), 0, '... nothing');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 1000, '198.51.100.7', 'other'),
  '42501 new row violates row-level security policy for table "objects"', 'no other bucket');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/report.pdf'),
  '42501 new row violates row-level security policy for table "objects"', 'no name but <uuid>/<uuid> (a file name)');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/AAAAAAAA-0000-4000-8000-000000000002'),
  '42501 new row violates row-level security policy for table "objects"', 'lowercase uuids only');
select is(pg_temp.may_upload('incoming/11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002'),
  '42501 new row violates row-level security policy for table "objects"', 'no deeper path');
select is(pg_temp.may_upload('aaaaaaaa-0000-4000-8000-000000000002'),
  '42501 new row violates row-level security policy for table "objects"', 'no object outside a submission folder');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 0),
  '42501 new row violates row-level security policy for table "objects"', 'no empty object');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', null),
  '42501 new row violates row-level security policy for table "objects"', 'no object without a declared length');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 28311553),
  '42501 Each file may be at most 28311552 bytes once sealed (limit: 26214400 bytes of plaintext per file).',
  'a file over the sealed bound is refused with its sentence');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 28311553),
  '403 attachment_too_large Each file may be at most 28311552 bytes once sealed (limit: 26214400 bytes of plaintext per file).',
  '... and cannot be reserved');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/report.pdf'),
  '400 attachment_invalid An attachment is named <submission id>/<object id> (two lowercase UUIDs) and holds at least one byte.',
  'nor can a name the policy refuses');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 28311552), 'ok',
  'a file at the bound is reserved');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000002', 28311552), 'ok',
  '... and accepted');

-- Only what was announced, and no more than announced (a form's framing aside).
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000009'),
  '42501 This file was not announced before its upload, or is larger than announced: call reserve_attachment first.',
  'an upload nobody reserved is refused');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000009', 1000), 'ok',
  'a file of 1 000 bytes is reserved');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000009', 9192), 'ok',
  'its standard upload may declare 8 KiB more (the form''s framing is in the request''s length)');
select is(pg_temp.may_upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000009', 9193),
  '42501 This file was not announced before its upload, or is larger than announced: call reserve_attachment first.',
  'one byte more than that is refused: a small reservation does not cover a large upload');
delete from private.attachment_reservations where name like '%-000000000009';

-- Once the row exists, its folder is closed.
insert into public.contact_submissions (id, sealed, key_id, mailbox_hash)
values ('22222222-2222-4222-8222-222222222222', pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32));
select is(pg_temp.may_upload('22222222-2222-4222-8222-222222222222/aaaaaaaa-0000-4000-8000-000000000003'),
  '42501 new row violates row-level security policy for table "objects"',
  'no upload for a submission whose row is already stored');
select is(pg_temp.reserve('22222222-2222-4222-8222-222222222222/aaaaaaaa-0000-4000-8000-000000000003'),
  '403 attachment_after_inquiry Files are uploaded before their inquiry, and this inquiry is already stored.',
  '... nor a reservation');

-- Five files per submission, stored or reserved.
select is(pg_temp.upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-00000000000' || n), 'ok',
  format('file %s of the submission is accepted', n))
  from generate_series(2, 4) as n;
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000005'), 'ok',
  'the 5th is reserved, its upload still going');
select is(pg_temp.reserve('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000006'),
  '403 attachment_too_many Too many files for one submission (limit: 5 files).',
  'the 6th file of one submission is refused, counting the one in progress');
select is(pg_temp.upload('11111111-1111-4111-8111-111111111111/aaaaaaaa-0000-4000-8000-000000000005'), 'ok',
  'the 5th is stored (announced again, as a new try would)');
select is(pg_temp.reserve('33333333-3333-4333-8333-333333333333/aaaaaaaa-0000-4000-8000-000000000006'), 'ok',
  'another submission has its own five');
delete from private.attachment_reservations;

-- Bytes per network per window (lowered here: 10 000 bytes an hour).
update private.attachment_limits set network_bytes = 10000;
select is(pg_temp.upload('44444444-4444-4444-8444-444444444444/aaaaaaaa-0000-4000-8000-000000000001', 4000, '203.0.113.9'), 'ok',
  '4 000 bytes from 203.0.113.0/24');
select is(pg_temp.upload('55555555-5555-4555-8555-555555555555/aaaaaaaa-0000-4000-8000-000000000001', 6000, '203.0.113.200'), 'ok',
  '6 000 more from the same /24 (10 000 in all: at the limit)');
select is(pg_temp.reserve('55555555-5555-4555-8555-555555555555/aaaaaaaa-0000-4000-8000-000000000002', 1, '203.0.113.1'),
  '429 attachment_network_limit Too many files from this network. Try again later.', 'one byte more from that /24 is refused');
select is(pg_temp.reserve('55555555-5555-4555-8555-555555555555/aaaaaaaa-0000-4000-8000-000000000002', 1, '192.0.2.1'), 'ok',
  'another network is not limited by it');
select is(pg_temp.reserve('55555555-5555-4555-8555-555555555555/aaaaaaaa-0000-4000-8000-000000000002', 9000, null), 'ok',
  'without the header only the global cap applies');
update private.attachment_rate_events set at = now() - interval '61 minutes' where bytes in (4000, 6000);
select is(pg_temp.reserve('55555555-5555-4555-8555-555555555555/aaaaaaaa-0000-4000-8000-000000000002', 1, '203.0.113.1'), 'ok',
  'an hour later the /24 may upload again');

-- Unfinished uploads count: a network cannot park more than its cap in uploads it never finishes.
select is(pg_temp.reserve('56565656-5656-4656-8656-565656565656/aaaaaaaa-0000-4000-8000-000000000001', 6000, '198.18.7.1'), 'ok',
  'an upload of 6 000 bytes starts from 198.18.7.0/24, and never finishes');
select is(pg_temp.reserve('57575757-5757-4757-8757-575757575757/aaaaaaaa-0000-4000-8000-000000000001', 6000, '198.18.7.2'),
  '429 attachment_network_limit Too many files from this network. Try again later.',
  'a second one of 6 000 bytes from that /24 is refused: the first counts while unfinished');
select is(pg_temp.reserve('56565656-5656-4656-8656-565656565656/aaaaaaaa-0000-4000-8000-000000000001', 6000, '198.18.7.1'), 'ok',
  'the first, tried again, still fits (its own reservation is replaced, not added)');
update private.attachment_reservations set reserved_at = now() - interval '61 minutes' where name like '56565656-%';
select is(pg_temp.may_upload('56565656-5656-4656-8656-565656565656/aaaaaaaa-0000-4000-8000-000000000001', 6000, '198.18.7.1'),
  '42501 This file was not announced before its upload, or is larger than announced: call reserve_attachment first.',
  'past upload_expiry (Storage''s resumable uploads expire), the unfinished upload may not go on');
select is(pg_temp.reserve('57575757-5757-4757-8757-575757575757/aaaaaaaa-0000-4000-8000-000000000001', 6000, '198.18.7.2'), 'ok',
  '... and no longer counts: the /24 may upload again');

-- The global cap, stored and reserved bytes alike.
update private.attachment_limits set global_bytes = 15000;
select is(pg_temp.reserve('66666666-6666-4666-8666-666666666666/aaaaaaaa-0000-4000-8000-000000000001', 7000, null),
  '429 attachment_global_limit The contact form is receiving too many files right now. Try again later.',
  'over the global bytes of the window, whatever the network: 5 000 stored this hour, 6 001 reserved, 7 000 more');
select is(pg_temp.reserve('66666666-6666-4666-8666-666666666666/aaaaaaaa-0000-4000-8000-000000000001', 3999, null), 'ok',
  '... while 3 999 more fit');
update private.attachment_limits set global_bytes = 10737418240, network_bytes = 314572800;
delete from private.attachment_reservations;

-- ---------------------------------------------------------------- nobody else writes, only staff read

select is(pg_temp.seen('anon'), 0, 'anon reads no object (no download, no list)');
select is(pg_temp.updated('anon'), 0, 'anon updates no object (no upsert)');
select is(pg_temp.deleted_through_storage('anon'), 0, 'anon deletes no object, even through Storage');
select throws_ok(
  $$ delete from storage.objects where bucket_id = 'contact-attachments' $$,
  '42501', 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
  'nobody deletes rows of storage.objects directly (Storage''s trigger)'
);
select is(pg_temp.seen('authenticated', 'b0000000-0000-4000-8000-00000000000b', 'aal2'), 0,
  'a signed-in user who is not staff reads nothing, even at aal2');
select is(pg_temp.seen('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1'), 0,
  'staff without the second factor (aal1) read nothing');
select is(pg_temp.seen('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2'), 7,
  'staff at aal2 read every object of the bucket (download)');
select is(pg_temp.updated('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2'), 0,
  'staff update no object');
select is(pg_temp.deleted_through_storage('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2'), 0,
  'staff delete no object');
select throws_ok(
  $$ select pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
     insert into storage.objects (bucket_id, name, metadata)
     values ('contact-attachments', '77777777-7777-4777-8777-777777777777/aaaaaaaa-0000-4000-8000-000000000001', '{"contentLength":1}') $$,
  '42501', 'new row violates row-level security policy for table "objects"',
  'staff upload nothing into the bucket'
);
reset role;

-- ---------------------------------------------------------------- removal

-- An inquiry with two objects, then purged: its objects are queued at once, with a notification.
select is(pg_temp.upload('88888888-8888-4888-8888-888888888888/aaaaaaaa-0000-4000-8000-00000000000' || n), 'ok',
  format('object %s of a submission that will be purged', n))
  from generate_series(1, 2) as n;
insert into public.contact_submissions (id, sealed, key_id, mailbox_hash, created_at, status, completed_at)
values ('88888888-8888-4888-8888-888888888888', pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32), now() - interval '3 days', 'completed', now() - interval '2 days');
select is(private.purge_contact_submissions(), 1, 'the purge deletes the completed inquiry');
select results_eq(
  $$ select name from public.pending_attachment_removals() where name like '88888888-%' order by name $$,
  $$ values ('88888888-8888-4888-8888-888888888888/aaaaaaaa-0000-4000-8000-000000000001'),
            ('88888888-8888-4888-8888-888888888888/aaaaaaaa-0000-4000-8000-000000000002') $$,
  'its two objects are queued for removal through the Storage API'
);

-- Orphans: a day-old object without a row is queued; a fresh one (an upload in progress) is not.
select is(pg_temp.upload('99999999-9999-4999-8999-999999999999/aaaaaaaa-0000-4000-8000-000000000001', 1000, '198.51.100.7',
  now() - interval '25 hours'), 'ok', 'an upload 25 hours ago whose row never came');
update private.attachment_rate_events set at = now() - interval '25 hours' where bytes = 4000;
insert into private.attachment_reservations (name, bytes, reserved_at)
values ('99999999-9999-4999-8999-999999999999/aaaaaaaa-0000-4000-8000-000000000002', 1000, now() - interval '25 hours');
select lives_ok($$ select private.purge_contact_submissions() $$, 'the next purge runs');
select is((select count(*)::int from private.attachment_reservations where reserved_at < now() - interval '24 hours'), 0,
  'reservations of uploads that never finished are deleted after a day');
select ok(exists (select from public.pending_attachment_removals() where name like '99999999-%'),
  'the day-old orphan is queued');
select ok(not exists (select from public.pending_attachment_removals() where name like '11111111-%'),
  'fresh objects without a row yet are not');

-- Storage's removal (its connection sets storage.allow_delete_query) takes them off the queue.
set local storage.allow_delete_query = 'true';
delete from storage.objects where name like '88888888-%' or name like '99999999-%';
set local storage.allow_delete_query = 'false';
select is((select count(*)::int from public.pending_attachment_removals()), 0,
  'once Storage has removed them, the queue is empty');
select is((select count(*)::int from private.attachment_rate_events where at < now() - interval '24 hours'), 0,
  'upload events older than a day are gone after the purge');

-- ---------------------------------------------------------------- never replaced

-- Two uploads of one new name both pass the permission check (it runs before the first byte);
-- Storage then writes each row as its superuser with an upsert. The second is refused.
select is(pg_temp.reserve('abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001', 700), 'ok',
  'two uploads of one new name are announced (the second replaces the first''s reservation)');
select is(pg_temp.may_upload('abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001', 700), 'ok',
  'one of two uploads of one new name passes the check while the other is in flight');
select is(pg_temp.upload('abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001', 500), 'ok',
  'the other passes it too and is stored first');
select throws_ok(
  $$ insert into storage.objects (bucket_id, name, version, metadata)
     values ('contact-attachments', 'abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001', 'v2',
             '{"size":700,"mimetype":"application/octet-stream"}')
     on conflict (bucket_id, name) do update set version = excluded.version, metadata = excluded.metadata $$,
  '23505', 'The object already exists: a stored file is never replaced.',
  'Storage''s upsert of the second, as its superuser, is refused (409 Duplicate)'
);
select results_eq(
  $$ select version, metadata ->> 'size' from storage.objects
      where name = 'abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001' $$,
  $$ values ('v1', '500') $$,
  'the first upload stays as it was stored'
);
select throws_ok(
  $$ update storage.objects set name = 'abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000002'
      where name = 'abababab-abab-4bab-8bab-abababababab/aaaaaaaa-0000-4000-8000-000000000001' $$,
  '23505', 'The object already exists: a stored file is never replaced.',
  'nor is a stored object moved or renamed, even by a role that bypasses row level security'
);

select * from finish();
rollback;
