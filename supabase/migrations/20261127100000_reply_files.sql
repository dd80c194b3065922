-- Files in the conversation (issue 26, its last part): staff replies carry sealed files, and the
-- visitor opens them on /replies with nothing but their receipt. The files are age ciphertext,
-- sealed in the inbox to the visitor's reply_to and the agency's recipients (exactly the reply's
-- recipients); their names, types, sizes and SHA-256 travel only inside the sealed reply (thread
-- message version 2). The database sees ciphertext lengths and times, as for the form's files.
--
--   * Bucket `conversation-files`, its own, beside contact-attachments: private, the same 27 MiB
--     per object and application/octet-stream only. A bucket of its own keeps each bucket's rules
--     whole: contact-attachments stays insert-only for anon and read-only for staff (its suite and
--     its policies unchanged), and nothing written by staff can ever be read back by a visitor who
--     only knows an inquiry's id. One bucket per direction of trust.
--   * Objects are named `<inquiry id>/<message id>/<object id>` (three lowercase uuids): the
--     inquiry gates the visitor's read, the message ties each file to the reply that lists it,
--     and the object id is random.
--   * Staff at aal2 may INSERT there (an upload), only under an inquiry that exists, has a thread
--     (mailbox_hash) and is open (not completed or declined), only while no message has the
--     reply's id yet (the files go first, the row last), at most files_per_submission objects per
--     message, each declared at most bytes_per_file_sealed (private.attachment_limits: the form's
--     limits). Staff at aal2 may SELECT (download) every object of the bucket.
--   * anon may SELECT (download, list) an object only with the thread's mailbox token in the
--     request header `x-mailbox-token`, and only the objects of an agency message stored in that
--     thread: uploads whose reply never came are never shown to the visitor. No token, a wrong
--     one, another thread: nothing (Storage answers 404 Object not found, an empty list). Listing
--     goes through storage.search, which runs with the caller's rights (SECURITY INVOKER,
--     supabase/storage migrations/tenant/0063), so the same policy filters it.
--   * Nobody may UPDATE or DELETE: service_role bypasses row level security, and removes objects
--     through the Storage API from the existing removal queue (private.attachment_removals):
--     with their inquiry when it is deleted, and orphans (no message with their message id) a
--     day after upload, from the hourly purge.
--
-- Why a header and row level security, not a signed URL: Supabase Storage sets request.headers
-- (every request header, as JSON) for the statements it runs as the requester (supabase/storage
-- src/internal/database/postgres/scope.ts), as PostgREST does, so the policy can read the token
-- where the existing policies already read cf-connecting-ip. A signed URL would need Storage's
-- signing secret in the database or an Edge Function to mint it, and it would put a bearer
-- secret in an address (history, logs, Referer). Storage logs only allow-listed headers
-- (src/internal/monitoring/logger.ts, whitelistHeaders), so the token is not in its logs. The
-- visitor's two thread functions take the same token in a request body.
--
-- What the header does not do: Storage's reads cannot write (a policy cannot count), so a wrong
-- token tried here is not counted as a miss of private.thread_limits. The token stands for 128
-- random bits (the receipt), so guessing is hopeless at any rate; the thread functions keep
-- counting the misses they see.
--
-- Runs on a hosted Supabase project, plain PostgreSQL 15 (pgTAP) and PGlite (the local backend).

-- ---------------------------------------------------------------- the bucket

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('conversation-files', 'conversation-files', false, 28311552, array['application/octet-stream'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- ---------------------------------------------------------------- the checks

-- The policies' conditions run with the requester's rights, so the requester must reach them:
-- the sealed files' own schema (anon already uses it for the form's uploads), which the API
-- does not expose. Staff reach it for the upload check only.
grant usage on schema attachment_access to authenticated;

-- The staff's upload check. False for a name or bucket outside the rules, an inquiry that is not
-- open with a thread, or a reply already stored (the plain policy refusal); a 42501 with a
-- sentence for a limit, as the form's check words them.
create function attachment_access.may_attach_reply(bucket_id text, name text, metadata jsonb)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits;
  inquiry uuid;
  message uuid;
  declared bigint;
  stored integer;
begin
  if bucket_id is distinct from 'conversation-files'
     or name is null
     or name !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     or not (select staff_access.is_inbox_reader()) then
    return false;
  end if;
  inquiry := split_part(name, '/', 1)::uuid;
  message := split_part(name, '/', 2)::uuid;
  if not exists (
    select from public.contact_submissions as c
     where c.id = inquiry
       and c.mailbox_hash is not null
       and c.status not in ('completed', 'declined')
  ) then
    return false;
  end if;
  -- The reply is stored last: once it is, its files are closed (and no other message's id).
  if exists (select from public.contact_messages as m where m.id = message) then
    return false;
  end if;

  select * into limits from private.attachment_limits;
  if not found then
    limits := row(true, 5, 26214400, 28311552, 314572800, interval '1 hour', 10737418240, interval '1 hour', now());
  end if;

  begin
    declared := (metadata ->> 'contentLength')::bigint;
  exception
    when others then declared := null;
  end;
  if declared is null or declared < 1 then
    return false;
  end if;
  if declared > limits.bytes_per_file_sealed then
    raise exception using errcode = '42501',
      message = format('Each file may be at most %s bytes once sealed (limit: %s bytes of plaintext per file).',
                       limits.bytes_per_file_sealed, limits.bytes_per_file);
  end if;

  select count(*) into stored
    from storage.objects as o
   where o.bucket_id = 'conversation-files' and o.name like inquiry::text || '/' || message::text || '/%';
  if stored >= limits.files_per_submission then
    raise exception using errcode = '42501',
      message = format('Too many files for one reply (limit: %s files).', limits.files_per_submission);
  end if;

  return true;
end
$$;

revoke all on function attachment_access.may_attach_reply(text, text, jsonb) from public;
grant execute on function attachment_access.may_attach_reply(text, text, jsonb) to authenticated;

comment on function attachment_access.may_attach_reply(text, text, jsonb) is
  'Whether staff may store this object in conversation-files: aal2 staff, name <inquiry>/<message>/<object> under an open inquiry with a thread, the reply not stored yet, within the form''s limits (42501 with a sentence when over one).';

-- The visitor's read check: the request's x-mailbox-token (64 lowercase hex, as the thread
-- functions take it) must open the object's inquiry, and the object's message must be an agency
-- message stored in that thread. Anything else, including a malformed or missing header: false.
create function attachment_access.may_read_reply_file(bucket_id text, name text)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  token text;
begin
  if bucket_id is distinct from 'conversation-files' or name is null then
    return false;
  end if;
  begin
    token := nullif(current_setting('request.headers', true), '')::json ->> 'x-mailbox-token';
  exception
    when others then return false;
  end;
  if token is null or token !~ '^[0-9a-f]{64}$'
     or name !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/' then
    return false;
  end if;
  return exists (
    select from public.contact_submissions as c
      join public.contact_messages as m on m.submission_id = c.id
     where c.mailbox_hash = pg_catalog.sha256(decode(token, 'hex'))
       and c.id = split_part(may_read_reply_file.name, '/', 1)::uuid
       and m.id = split_part(may_read_reply_file.name, '/', 2)::uuid
       and m.direction = 'agency'
  );
end
$$;

revoke all on function attachment_access.may_read_reply_file(text, text) from public;
grant execute on function attachment_access.may_read_reply_file(text, text) to anon;

comment on function attachment_access.may_read_reply_file(text, text) is
  'Whether the request''s x-mailbox-token opens this object of conversation-files: its inquiry''s mailbox, and a stored agency message of that thread.';

-- ---------------------------------------------------------------- the policies

create policy conversation_files_staff_insert
  on storage.objects
  as permissive
  for insert
  to authenticated
  with check (attachment_access.may_attach_reply(bucket_id, name, metadata));

create policy conversation_files_staff_select
  on storage.objects
  as permissive
  for select
  to authenticated
  using (bucket_id = 'conversation-files' and (select staff_access.is_inbox_reader()));

create policy conversation_files_visitor_select
  on storage.objects
  as permissive
  for select
  to anon
  using (bucket_id = 'conversation-files' and attachment_access.may_read_reply_file(bucket_id, name));

-- ---------------------------------------------------------------- removal

-- An inquiry's objects go with it: the form's files and the conversation's.
create or replace function private.contact_submissions_queue_attachments()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  queued integer;
begin
  insert into private.attachment_removals (bucket_id, name)
  select o.bucket_id, o.name
    from storage.objects as o
   where o.bucket_id in ('contact-attachments', 'conversation-files')
     and o.name like old.id::text || '/%'
  on conflict do nothing;
  get diagnostics queued = row_count;
  if queued > 0 then
    perform private.announce_attachment_removals();
  end if;
  return null;
end
$$;

-- Day-old objects nobody's row names: the form's uploads whose inquiry never came (as before),
-- and reply files whose reply never came (no message has their message id).
create or replace function private.queue_orphan_attachments(at timestamptz default now())
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  queued integer;
begin
  insert into private.attachment_removals (bucket_id, name)
  select o.bucket_id, o.name
    from storage.objects as o
   where o.created_at < queue_orphan_attachments.at - interval '24 hours'
     and (
       (o.bucket_id = 'contact-attachments'
        and not exists (
          select from public.contact_submissions as c
           where c.id::text = split_part(o.name, '/', 1)
        ))
       or
       (o.bucket_id = 'conversation-files'
        and not exists (
          select from public.contact_messages as m
           where m.id::text = split_part(o.name, '/', 2)
             and m.submission_id::text = split_part(o.name, '/', 1)
        ))
     )
  on conflict do nothing;
  get diagnostics queued = row_count;
  if queued > 0 or exists (select from private.attachment_removals) then
    perform private.announce_attachment_removals();
  end if;
  return queued;
end
$$;

comment on table private.attachment_removals is
  'Objects of contact-attachments and conversation-files to remove through the Storage API (purged inquiries, day-old orphans); a row leaves when Storage deletes its object.';

comment on function public.pending_attachment_removals(integer) is
  'Objects of contact-attachments and conversation-files queued for removal through the Storage API (service_role only).';
