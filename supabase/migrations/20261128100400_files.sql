-- Sealed files: the private buckets, who may do what with their objects (row level security on
-- storage.objects, which Supabase Storage checks as the requester's role), the abuse limits, and
-- the queue through which objects are removed (Storage forbids deleting storage.objects rows
-- directly: the Storage API removes them). The files are age ciphertext sealed in a browser; their
-- names, types, sizes and SHA-256 travel only inside the sealed inquiry or reply.
--
-- Two buckets, one per direction of trust, each 27 MiB per object (25 MiB of plaintext plus age's
-- overhead: 16 bytes per 64 KiB chunk and a header), `application/octet-stream` only:
--   * `contact-attachments`, the form's files. anon may INSERT an object there, and nothing else:
--     only under `<submission id>/<object id>` (two lowercase uuids), only while no
--     contact_submissions row has that id (uploads come before the row), and only once reserved
--     (see "Counting"): at most `files_per_submission` objects under one submission, each
--     declared at most `bytes_per_file_sealed`, and within `network_bytes` per `network_window`
--     from one /24 or /64 network and `global_bytes` per `global_window` overall, unfinished
--     uploads included. No SELECT, so no download, no
--     list and no upsert (Storage needs SELECT and UPDATE for those); no UPDATE, no DELETE. An
--     existing name cannot be written again: the insert conflicts (409 Duplicate), and a trigger
--     refuses any replacement, even by Storage's own final upsert. Staff at aal2
--     may SELECT (download).
--   * `conversation-files`, staff replies' files, named `<inquiry id>/<message id>/<object id>`
--     (three lowercase uuids): the inquiry gates the visitor's read, the message ties each file to
--     the reply that lists it. Staff at aal2 may INSERT under an inquiry that is open (not
--     completed or declined), only while no message has the reply's id yet (the files go first,
--     the row last), within the form's per-file limits; they may SELECT every object. anon may
--     SELECT (download, list) an object only with the thread's mailbox token in the request header
--     `x-mailbox-token`, and only the objects of an agency message stored in that thread: uploads
--     whose reply never came are never shown to the visitor. Listing goes through storage.search,
--     which runs with the caller's rights (SECURITY INVOKER, supabase/storage
--     migrations/tenant/0063), so the same policy filters it.
-- Nobody may UPDATE or DELETE: service_role bypasses row level security, as on Supabase, and only
-- it removes objects, through the Storage API, from the queue below.
--
-- Needs Supabase Storage v1.45.0 or later. Both upload policies read the declared length,
-- `metadata ->> 'contentLength'`, which Storage passes to its permission check only since v1.45.0
-- (its test insert carried bucket, name, owner and version alone before): on an older Storage every
-- upload, the form's and the inbox's, is refused as "new row violates row-level security policy".
-- Hosted projects run a current Storage; `supabase start` runs the image its CLI release pins.
--
-- The limits are refused from the policy with SQLSTATE 42501 and a sentence saying which limit:
-- Storage answers 42501 as AccessDenied (403) and keeps the message unless it mentions row-level
-- security (supabase/storage src/storage/database/errors.ts). A name or bucket the policy does
-- not allow gets the plain policy refusal, "new row violates row-level security policy".
--
-- Counting: Storage checks the policy in a transaction it rolls back (Uploader.canUpload), once
-- per standard upload and on every TUS POST and PATCH, with the declared length
-- (metadata.contentLength: the request's Content-Length, or Upload-Length), then inserts the row
-- itself as its superuser once the bytes are stored. Nothing Storage runs before that last insert
-- commits, so the check cannot count an upload in progress. The site therefore announces each
-- file first, through PostgREST: public.reserve_attachment(name, bytes) counts it against the
-- limits at once (files per submission, bytes per network and overall), and the policy lets
-- through only an upload so reserved, for no more than its reserved length. The reservation counts
-- until the object is stored (the AFTER INSERT trigger below turns it into an upload event) or
-- until upload_expiry, when Storage's resumable upload expires. So unfinished uploads count as
-- soon as they start, and uploads opened in parallel cannot pass a limit together.
--
-- The network: as for rows (abuse limits migration), from `cf-connecting-ip` in request.headers,
-- which Storage sets in both transactions; only its daily HMAC bucket is kept, for 24 hours at
-- most, with the bytes and the time. Without the header only the global cap applies.
--
-- Why a header and row level security for the visitor's read, not a signed URL: Supabase Storage
-- sets request.headers (every request header, as JSON) for the statements it runs as the
-- requester (supabase/storage src/internal/database/postgres/scope.ts), as PostgREST does, so the
-- policy can read the token where the form's policy reads cf-connecting-ip. A signed URL would need
-- Storage's signing secret in the database or an Edge Function to mint it, and it would put a
-- bearer secret in an address (history, logs, Referer). Storage logs only allow-listed headers
-- (src/internal/monitoring/logger.ts, whitelistHeaders), so the token is not in its logs. A token
-- that opens no inquiry is counted as a miss of private.thread_limits, against the request's
-- network, as the thread functions count a wrong receipt: Storage's reads commit, so the policy's
-- check can write (once per request, however many rows it is asked about). A read is never
-- refused for its network's misses: it answers only what the token opens. The token stands for
-- 128 random bits (the receipt), so guessing is hopeless at any rate; the count bounds the load.
--
-- Runs on a hosted Supabase project, plain PostgreSQL 15 (pgTAP) and PGlite (the local backend).

-- ---------------------------------------------------------------- the buckets

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('contact-attachments', 'contact-attachments', false, 28311552, array['application/octet-stream']),
       ('conversation-files', 'conversation-files', false, 28311552, array['application/octet-stream'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- ---------------------------------------------------------------- settings

-- One row, as private.contact_limits. files_per_submission and bytes_per_file (of plaintext)
-- are the site's ATTACHMENT_LIMITS (src/shared/submission/attachments.ts); bytes_per_file_sealed
-- bounds the ciphertext a declared upload may be, and equals the buckets' file_size_limit. Staff
-- replies use the same per-file numbers. upload_expiry is how long a reserved upload counts
-- unfinished: Storage's TUS_URL_EXPIRY_MS (an hour), after which its upload cannot go on.
create table private.attachment_limits (
  singleton boolean not null default true,
  files_per_submission integer not null default 5,
  bytes_per_file bigint not null default 26214400,
  bytes_per_file_sealed bigint not null default 28311552,
  network_bytes bigint not null default 314572800,
  network_window interval not null default interval '1 hour',
  global_bytes bigint not null default 10737418240,
  global_window interval not null default interval '1 hour',
  upload_expiry interval not null default interval '1 hour',
  updated_at timestamptz not null default now(),

  constraint attachment_limits_pkey primary key (singleton),
  constraint attachment_limits_singleton_check check (singleton),
  constraint attachment_limits_files_check check (files_per_submission between 0 and 100),
  constraint attachment_limits_sealed_check check (bytes_per_file_sealed >= bytes_per_file),
  constraint attachment_limits_network_bytes_check check (network_bytes >= 0),
  constraint attachment_limits_global_bytes_check check (global_bytes >= 0),
  constraint attachment_limits_network_window_check check (network_window between interval '1 minute' and interval '24 hours'),
  constraint attachment_limits_global_window_check check (global_window between interval '1 minute' and interval '24 hours'),
  constraint attachment_limits_upload_expiry_check check (upload_expiry between interval '1 minute' and interval '24 hours')
);
insert into private.attachment_limits default values;

alter table private.attachment_limits enable row level security;
revoke all on table private.attachment_limits from public, anon, authenticated;
grant all on table private.attachment_limits to service_role;

comment on table private.attachment_limits is
  'Limits of uploads (one row): files per submission or reply, bytes per file, and for anonymous uploads bytes per network and overall per window.';

create function private.current_attachment_limits()
  returns private.attachment_limits
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits;
begin
  select * into limits from private.attachment_limits;
  if not found then
    -- The settings row was deleted: the defaults still hold, never "no limit".
    limits := row(true, 5, 26214400, 28311552, 314572800, interval '1 hour', 10737418240, interval '1 hour',
                  interval '1 hour', now());
  end if;
  return limits;
end
$$;

revoke all on function private.current_attachment_limits() from public;

-- One row per stored object of contact-attachments: when, how many bytes, and the keyed network
-- bucket (null without a usable header). No name, no submission id.
create table private.attachment_rate_events (
  at timestamptz not null default now(),
  bucket text,
  bytes bigint not null,

  constraint attachment_rate_events_bucket_check check (bucket ~ '^[0-9a-f]{64}$')
);
create index attachment_rate_events_bucket_at_idx on private.attachment_rate_events (bucket, at);
create index attachment_rate_events_at_idx on private.attachment_rate_events (at);

alter table private.attachment_rate_events enable row level security;
revoke all on table private.attachment_rate_events from public, anon, authenticated;
grant select, delete on table private.attachment_rate_events to service_role;

comment on table private.attachment_rate_events is
  'Upload events: time, bytes and HMAC network bucket of each stored attachment; deleted after 24 hours.';

-- One row per announced upload of contact-attachments not stored yet (public.reserve_attachment):
-- its name, declared bytes, keyed network bucket and time. It counts against the byte limits
-- until its object is stored (the trigger below turns it into an upload event) or its
-- upload_expiry passes; the purge deletes it after 24 hours.
create table private.attachment_reservations (
  name text not null,
  bucket text,
  bytes bigint not null,
  reserved_at timestamptz not null default now(),

  constraint attachment_reservations_pkey primary key (name),
  constraint attachment_reservations_bytes_check check (bytes > 0),
  constraint attachment_reservations_bucket_check check (bucket ~ '^[0-9a-f]{64}$')
);
create index attachment_reservations_bucket_reserved_at_idx on private.attachment_reservations (bucket, reserved_at);
create index attachment_reservations_reserved_at_idx on private.attachment_reservations (reserved_at);

alter table private.attachment_reservations enable row level security;
revoke all on table private.attachment_reservations from public, anon, authenticated;
grant select, delete on table private.attachment_reservations to service_role;

comment on table private.attachment_reservations is
  'Announced uploads of contact-attachments not stored yet: name, declared bytes, HMAC network bucket, time. Counted against the byte limits until stored or expired.';

-- ---------------------------------------------------------------- the checks

-- The uuids of an object name of exactly `parts` lowercase uuids joined by '/', or null.
create function private.uuid_path(name text, parts integer)
  returns uuid[]
  language sql
  immutable
  parallel safe
  set search_path = ''
as $$
  select case
    when name ~ ('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
                 || repeat('/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', parts - 1) || '$')
    then string_to_array(name, '/')::uuid[]
  end
$$;

-- The length an upload declares (Storage passes `contentLength` to its permission check since
-- v1.45.0), or null; a length over the per-file bound is refused with its sentence.
create function private.declared_upload_length(metadata jsonb, limits private.attachment_limits)
  returns bigint
  language plpgsql
  stable
  set search_path = ''
as $$
declare
  declared bigint;
begin
  begin
    declared := (metadata ->> 'contentLength')::bigint;
  exception
    when others then return null;
  end;
  if declared is null or declared < 1 then
    return null;
  end if;
  if declared > limits.bytes_per_file_sealed then
    raise exception using errcode = '42501',
      message = format('Each file may be at most %s bytes once sealed (limit: %s bytes of plaintext per file).',
                       limits.bytes_per_file_sealed, limits.bytes_per_file);
  end if;
  return declared;
end
$$;

revoke all on function private.uuid_path(text, integer), private.declared_upload_length(jsonb, private.attachment_limits) from public;

-- The policies' conditions run with the requester's rights, so the requester must reach them:
-- their own schema, which the API does not expose, holding these functions.
create schema if not exists attachment_access;
revoke all on schema attachment_access from public;
grant usage on schema attachment_access to anon, authenticated;

-- Bytes counted against a byte limit over `time_window`: those stored (upload events) and those
-- reserved by uploads not finished yet (within upload_expiry), for one network bucket or, with
-- null, for everyone.
create function private.attachment_bytes_in_use(network text, time_window interval, limits private.attachment_limits)
  returns bigint
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select (select coalesce(sum(e.bytes), 0)
            from private.attachment_rate_events as e
           where e.at > now() - time_window and (network is null or e.bucket = network))
       + (select coalesce(sum(r.bytes), 0)
            from private.attachment_reservations as r
           where r.reserved_at > now() - limits.upload_expiry and (network is null or r.bucket = network))
$$;

revoke all on function private.attachment_bytes_in_use(text, interval, private.attachment_limits) from public;

-- What the form's files ask before their upload (public.reserve_attachment): room for `byte_count`
-- bytes under `object_name`, counted against the limits at once, so a network cannot park
-- unfinished uploads past its cap. An object already stored reserves nothing (its upload answers
-- 409: stored). Asking again for the same name replaces its reservation (a new try of the same
-- file). Refusals as PostgREST answers: 400 for a name or size the form never sends, 403 for a
-- file past the per-file limits or an inquiry already stored, 429 for the byte caps.
create function attachment_access.reserve_upload(object_name text, byte_count bigint)
  returns void
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits := private.current_attachment_limits();
  path uuid[] := private.uuid_path(object_name, 2);
  network text := private.request_network_bucket();
  files integer;
begin
  if path is null or byte_count is null or byte_count < 1 then
    perform private.pgrst_refusal(
      400, 'attachment_invalid',
      'An attachment is named <submission id>/<object id> (two lowercase UUIDs) and holds at least one byte.'
    );
  end if;
  if byte_count > limits.bytes_per_file_sealed then
    perform private.pgrst_refusal(
      403, 'attachment_too_large',
      format('Each file may be at most %s bytes once sealed (limit: %s bytes of plaintext per file).',
             limits.bytes_per_file_sealed, limits.bytes_per_file)
    );
  end if;
  if exists (select from storage.objects as o where o.bucket_id = 'contact-attachments' and o.name = object_name) then
    return;
  end if;
  if exists (select from public.contact_submissions as c where c.id = path[1]) then
    perform private.pgrst_refusal(
      403, 'attachment_after_inquiry',
      'Files are uploaded before their inquiry, and this inquiry is already stored.'
    );
  end if;

  -- Reservations take turns, so two cannot both see room for the last bytes of a cap. Uploads
  -- are few; the turn lasts one short transaction.
  perform pg_advisory_xact_lock(hashtext('attachment reservations'));
  delete from private.attachment_reservations as r where r.name = object_name;

  select count(*) into files
    from (
      select o.name from storage.objects as o
       where o.bucket_id = 'contact-attachments' and o.name like path[1]::text || '/%'
      union
      select r.name from private.attachment_reservations as r
       where r.name like path[1]::text || '/%' and r.reserved_at > now() - limits.upload_expiry
    ) as named;
  if files >= limits.files_per_submission then
    perform private.pgrst_refusal(
      403, 'attachment_too_many',
      format('Too many files for one submission (limit: %s files).', limits.files_per_submission)
    );
  end if;
  if private.attachment_bytes_in_use(null, limits.global_window, limits) + byte_count > limits.global_bytes then
    perform private.pgrst_refusal(
      429, 'attachment_global_limit',
      'The contact form is receiving too many files right now. Try again later.',
      extract(epoch from limits.global_window)::integer
    );
  end if;
  if network is not null
     and private.attachment_bytes_in_use(network, limits.network_window, limits) + byte_count > limits.network_bytes then
    perform private.pgrst_refusal(
      429, 'attachment_network_limit',
      'Too many files from this network. Try again later.',
      extract(epoch from limits.network_window)::integer
    );
  end if;

  insert into private.attachment_reservations (name, bucket, bytes) values (object_name, network, byte_count);
end
$$;

comment on function attachment_access.reserve_upload(text, bigint) is
  'Reserves room for one upload of contact-attachments before it starts, within the limits (PostgREST refusals 400, 403, 429).';

-- What the API serves (POST /rest/v1/rpc/reserve_attachment): the caller's rights, as the
-- thread functions; volatile, so PostgREST runs it read-write.
create function public.reserve_attachment(object_name text, byte_count bigint)
  returns void
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  select attachment_access.reserve_upload(object_name, byte_count)
$$;

comment on function public.reserve_attachment(text, bigint) is
  'Announces one upload of the form''s files (name <submission>/<object>, sealed bytes) before it starts; counted against the byte limits until stored or expired.';

-- The form's upload check for anon. False for a name or bucket outside the rules (the plain
-- policy refusal); a 42501 with a sentence for a limit, or for an upload nobody reserved (or one
-- larger than reserved). Storage runs it before the first byte and again on every resumable
-- chunk, with the declared length: the limits themselves were counted by the reservation.
-- A standard upload declares its whole request, a form's framing included, so that much more
-- than the file is allowed.
create function attachment_access.may_attach(bucket_id text, name text, metadata jsonb)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits := private.current_attachment_limits();
  path uuid[] := private.uuid_path(name, 2);
  declared bigint;
begin
  if bucket_id is distinct from 'contact-attachments' or path is null then
    return false;
  end if;
  if exists (select from public.contact_submissions as c where c.id = path[1]) then
    return false;
  end if;
  declared := private.declared_upload_length(metadata, limits);
  if declared is null then
    return false;
  end if;
  -- A name already stored: the insert conflicts (409 Duplicate), which the site counts as stored.
  if exists (select from storage.objects as o where o.bucket_id = 'contact-attachments' and o.name = may_attach.name) then
    return true;
  end if;
  if not exists (
    select from private.attachment_reservations as r
     where r.name = may_attach.name
       and r.reserved_at > now() - limits.upload_expiry
       and declared <= r.bytes + 8192
  ) then
    raise exception using errcode = '42501',
      message = 'This file was not announced before its upload, or is larger than announced: call reserve_attachment first.';
  end if;
  return true;
end
$$;

comment on function attachment_access.may_attach(text, text, jsonb) is
  'Whether anon may store this object in contact-attachments: name <uuid>/<uuid>, no row yet, reserved for at least its declared length (42501 with a sentence otherwise).';

-- The staff's upload check. False for a name or bucket outside the rules, an inquiry that is not
-- open, or a reply already stored (the plain policy refusal); a 42501 with a sentence for a
-- limit, as the form's check words them.
create function attachment_access.may_attach_reply(bucket_id text, name text, metadata jsonb)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits := private.current_attachment_limits();
  path uuid[] := private.uuid_path(name, 3);
  stored integer;
begin
  if bucket_id is distinct from 'conversation-files' or path is null
     or not (select staff_access.is_inbox_reader()) then
    return false;
  end if;
  if not exists (
    select from public.contact_submissions as c
     where c.id = path[1] and c.status not in ('completed', 'declined')
  ) then
    return false;
  end if;
  -- The reply is stored last: once it is, its files are closed (and no other message's id).
  if exists (select from public.contact_messages as m where m.id = path[2]) then
    return false;
  end if;
  if private.declared_upload_length(metadata, limits) is null then
    return false;
  end if;

  select count(*) into stored
    from storage.objects as o
   where o.bucket_id = 'conversation-files' and o.name like path[1]::text || '/' || path[2]::text || '/%';
  if stored >= limits.files_per_submission then
    raise exception using errcode = '42501',
      message = format('Too many files for one reply (limit: %s files).', limits.files_per_submission);
  end if;

  return true;
end
$$;

comment on function attachment_access.may_attach_reply(text, text, jsonb) is
  'Whether staff may store this object in conversation-files: aal2 staff, name <inquiry>/<message>/<object> under an open inquiry, the reply not stored yet, within the form''s limits (42501 with a sentence when over one).';

-- The visitor's read check: the request's x-mailbox-token (64 lowercase hex, as the thread
-- functions take it) must open the object's inquiry, and the object's message must be an agency
-- message stored in that thread. Anything else, including a malformed or missing header: false.
-- A well-formed token that opens no inquiry counts one miss for the request (volatile: it writes).
create function attachment_access.may_read_reply_file(bucket_id text, name text)
  returns boolean
  language plpgsql
  volatile
  security definer
  set search_path = ''
as $$
declare
  path uuid[] := private.uuid_path(name, 3);
  token text;
  mailbox bytea;
begin
  if bucket_id is distinct from 'conversation-files' or path is null then
    return false;
  end if;
  begin
    token := nullif(current_setting('request.headers', true), '')::json ->> 'x-mailbox-token';
  exception
    when others then return false;
  end;
  if token is null or token !~ '^[0-9a-f]{64}$' then
    return false;
  end if;
  mailbox := pg_catalog.sha256(decode(token, 'hex'));
  if exists (
    select from public.contact_submissions as c
      join public.contact_messages as m on m.submission_id = c.id
     where c.mailbox_hash = mailbox
       and c.id = path[1]
       and m.id = path[2]
       and m.direction = 'agency'
  ) then
    return true;
  end if;
  if current_setting('attachment_access.miss_counted', true) is distinct from 'true'
     and not exists (select from public.contact_submissions as c where c.mailbox_hash = mailbox) then
    perform set_config('attachment_access.miss_counted', 'true', true);
    begin
      perform private.count_mailbox_miss();
    exception
      -- A read-only transaction cannot count; the read is answered all the same.
      when read_only_sql_transaction then null;
    end;
  end if;
  return false;
end
$$;

comment on function attachment_access.may_read_reply_file(text, text) is
  'Whether the request''s x-mailbox-token opens this object of conversation-files: its inquiry''s mailbox, and a stored agency message of that thread.';

revoke all on function attachment_access.may_attach(text, text, jsonb),
  attachment_access.may_attach_reply(text, text, jsonb),
  attachment_access.may_read_reply_file(text, text),
  attachment_access.reserve_upload(text, bigint) from public;
revoke all on function public.reserve_attachment(text, bigint) from public, anon, authenticated;
grant execute on function attachment_access.may_attach(text, text, jsonb) to anon;
grant execute on function attachment_access.reserve_upload(text, bigint), public.reserve_attachment(text, bigint) to anon;
grant execute on function attachment_access.may_attach_reply(text, text, jsonb) to authenticated;
grant execute on function attachment_access.may_read_reply_file(text, text) to anon;

-- ---------------------------------------------------------------- the policies

create policy contact_attachments_anon_insert
  on storage.objects
  as permissive
  for insert
  to anon
  with check (attachment_access.may_attach(bucket_id, name, metadata));

create policy contact_attachments_staff_select
  on storage.objects
  as permissive
  for select
  to authenticated
  using (bucket_id = 'contact-attachments' and (select staff_access.is_inbox_reader()));

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

-- ---------------------------------------------------------------- never overwritten

-- An object of either bucket, once stored, is never replaced, whoever asks. Storage writes the
-- row as its own superuser once the bytes are in (Uploader.completeUpload, an upsert whatever the
-- request said), after a permission check that ran before the first byte: two uploads of one new
-- name both pass it, and without this trigger the second to finish would replace the first. Here
-- the second is a unique violation (Storage's 409 Duplicate), and the first stays. Removal is a
-- delete (the queue below), never an update.
create function private.sealed_object_unchanged()
  returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if (new.bucket_id, new.name, new.version, new.metadata, new.owner_id, new.user_metadata)
     is distinct from (old.bucket_id, old.name, old.version, old.metadata, old.owner_id, old.user_metadata) then
    raise exception using errcode = '23505',
      message = 'The object already exists: a stored file is never replaced.';
  end if;
  return new;
end
$$;

revoke all on function private.sealed_object_unchanged() from public;

create trigger sealed_objects_never_replaced
  before update on storage.objects
  for each row
  when (old.bucket_id in ('contact-attachments', 'conversation-files'))
  execute function private.sealed_object_unchanged();

-- ---------------------------------------------------------------- counting stored bytes

create function private.attachment_count_bytes()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.bucket_id = 'contact-attachments' then
    -- Stored: its reservation gives way to the upload event, in one transaction.
    delete from private.attachment_reservations as r where r.name = new.name;
    insert into private.attachment_rate_events (at, bucket, bytes)
    values (now(), private.request_network_bucket(),
            greatest(0, coalesce(nullif(new.metadata ->> 'size', '')::bigint,
                                 nullif(new.metadata ->> 'contentLength', '')::bigint, 0)));
  end if;
  return null;
end
$$;

revoke all on function private.attachment_count_bytes() from public;

create trigger contact_attachments_count_bytes
  after insert on storage.objects
  for each row execute function private.attachment_count_bytes();

-- ---------------------------------------------------------------- removal

-- Objects due for removal through the Storage API. Rows arrive when an inquiry is deleted (its
-- objects in both buckets) and from the hourly purge (objects a day old nobody's row names); each
-- leaves when Storage deletes its object (trigger below), so a failed removal is retried on the
-- next run. Each arrival notifies channel `attachment_removal` (the local backend listens) and, on
-- Supabase, calls the Edge Function `attachment-purge` (Vault secrets attachment_purge_url and
-- attachment_purge_secret, as the staff alert's webhook), which removes them with the service role.
create table private.attachment_removals (
  bucket_id text not null,
  name text not null,
  queued_at timestamptz not null default now(),

  constraint attachment_removals_pkey primary key (bucket_id, name)
);

alter table private.attachment_removals enable row level security;
revoke all on table private.attachment_removals from public, anon, authenticated;
grant select on table private.attachment_removals to service_role;

comment on table private.attachment_removals is
  'Objects of contact-attachments and conversation-files to remove through the Storage API (purged inquiries, day-old orphans); a row leaves when Storage deletes its object.';

-- Tells the consumers there is work: pg_notify always; on Supabase also a POST to the Edge
-- Function, never failing the caller.
create function private.announce_attachment_removals()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform pg_notify('attachment_removal', '');
  perform private.post_to_function('attachment_purge_url', 'attachment_purge_secret',
                                   'x-attachment-purge-secret', '{}');
end
$$;

revoke all on function private.announce_attachment_removals() from public;

-- An inquiry's objects go with it: the form's files and the conversation's.
create function private.contact_submissions_queue_attachments()
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

revoke all on function private.contact_submissions_queue_attachments() from public;

create trigger contact_submissions_queue_attachments
  after delete on public.contact_submissions
  for each row execute function private.contact_submissions_queue_attachments();

-- A removed object leaves the queue.
create function private.attachment_removed()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  delete from private.attachment_removals as r where r.bucket_id = old.bucket_id and r.name = old.name;
  return null;
end
$$;

revoke all on function private.attachment_removed() from public;

create trigger contact_attachments_removed
  after delete on storage.objects
  for each row execute function private.attachment_removed();

-- Day-old objects nobody's row names, queued: the form's uploads whose inquiry never came, and
-- reply files whose reply never came (no message has their message id). Called by the purge.
create function private.queue_orphan_attachments(at timestamptz default now())
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

revoke all on function private.queue_orphan_attachments(timestamptz) from public;

-- What the consumers read (the Edge Function through PostgREST with the service role key):
-- bucket and name of each queued object, oldest first.
create function public.pending_attachment_removals(max_rows integer default 1000)
  returns table (bucket_id text, name text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select r.bucket_id, r.name
    from private.attachment_removals as r
   order by r.queued_at, r.name
   limit greatest(1, least(max_rows, 1000))
$$;

revoke all on function public.pending_attachment_removals(integer) from public, anon, authenticated;
grant execute on function public.pending_attachment_removals(integer) to service_role;

comment on function public.pending_attachment_removals(integer) is
  'Objects of contact-attachments and conversation-files queued for removal through the Storage API (service_role only).';
