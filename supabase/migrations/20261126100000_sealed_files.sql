-- Sealed files (issue 26): the private bucket the contact form uploads age ciphertext into, who may
-- do what with its objects (row level security on storage.objects, which Supabase Storage checks
-- as the requester's role), the abuse limits, and the queue through which objects are removed
-- (Storage forbids deleting storage.objects rows directly: the Storage API removes them).
--
--   * Bucket `contact-attachments`: private, 27 MiB per object (25 MiB of plaintext plus age's
--     overhead: 16 bytes per 64 KiB chunk and a header), `application/octet-stream` only.
--   * anon may INSERT an object there, and nothing else: only under `<submission id>/<object id>`
--     (two lowercase uuids), only while no contact_submissions row has that id (uploads come
--     before the row), at most `files_per_submission` objects under one submission, each declared
--     at most `bytes_per_file_sealed`, and within `network_bytes` per `network_window` from one
--     /24 or /64 network and `global_bytes` per `global_window` overall. No SELECT, so no
--     download, no list and no upsert (Storage needs SELECT and UPDATE for those); no UPDATE, no
--     DELETE. An existing name cannot be written again: the insert conflicts (409 Duplicate).
--   * staff at aal2 (staff_access.is_inbox_reader()) may SELECT: download.
--   * service_role bypasses row level security, as on Supabase: only it removes objects, through
--     the Storage API, from the queue below.
--
-- The limits are refused from the policy with SQLSTATE 42501 and a sentence saying which limit:
-- Storage answers 42501 as AccessDenied (403) and keeps the message unless it mentions row-level
-- security (supabase/storage src/storage/database/errors.ts). A name or bucket the policy does
-- not allow gets the plain policy refusal, "new row violates row-level security policy".
--
-- Counting: Storage checks the policy in a transaction it rolls back (Uploader.canUpload), once
-- per standard upload and on every TUS POST and PATCH, then inserts the row itself as its
-- superuser once the bytes are stored. So the check only reads: it counts the objects already
-- stored under the submission, and the bytes recorded by the AFTER INSERT trigger below at that
-- final insert. Uploads still in flight are not counted yet: a client uploading in parallel can go
-- past a limit by the uploads it has open at once (the site uploads one file at a time).
--
-- The network: as for rows (abuse limits migration), from `cf-connecting-ip` in request.headers,
-- which Storage sets in both transactions; only its daily HMAC bucket is kept, for 24 hours at
-- most, with the bytes and the time. Without the header only the global cap applies.

-- ---------------------------------------------------------------- the bucket

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('contact-attachments', 'contact-attachments', false, 28311552, array['application/octet-stream'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- ---------------------------------------------------------------- settings

-- One row, as private.contact_limits. files_per_submission and bytes_per_file (of plaintext)
-- are the site's ATTACHMENT_LIMITS (src/shared/submission/attachments.ts); bytes_per_file_sealed
-- bounds the ciphertext a declared upload may be, and equals the bucket's file_size_limit.
create table private.attachment_limits (
  singleton boolean not null default true,
  files_per_submission integer not null default 5,
  bytes_per_file bigint not null default 26214400,
  bytes_per_file_sealed bigint not null default 28311552,
  network_bytes bigint not null default 314572800,
  network_window interval not null default interval '1 hour',
  global_bytes bigint not null default 10737418240,
  global_window interval not null default interval '1 hour',
  updated_at timestamptz not null default now(),

  constraint attachment_limits_pkey primary key (singleton),
  constraint attachment_limits_singleton_check check (singleton),
  constraint attachment_limits_files_check check (files_per_submission between 0 and 100),
  constraint attachment_limits_sealed_check check (bytes_per_file_sealed >= bytes_per_file),
  constraint attachment_limits_network_bytes_check check (network_bytes >= 0),
  constraint attachment_limits_global_bytes_check check (global_bytes >= 0),
  constraint attachment_limits_network_window_check check (network_window between interval '1 minute' and interval '24 hours'),
  constraint attachment_limits_global_window_check check (global_window between interval '1 minute' and interval '24 hours')
);
insert into private.attachment_limits default values;

alter table private.attachment_limits enable row level security;
revoke all on table private.attachment_limits from public, anon, authenticated;
grant all on table private.attachment_limits to service_role;

comment on table private.attachment_limits is
  'Limits of anonymous uploads into contact-attachments (one row): files per submission, bytes per file, bytes per network and overall per window.';

-- One row per stored object of the bucket: when, how many bytes, and the keyed network bucket
-- (null without a usable header). No name, no submission id.
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

-- ---------------------------------------------------------------- the network of a request

-- The HMAC bucket of the request's cf-connecting-ip (as the row limits compute it), a shared
-- bucket for an unparsable value, null without the header.
create function private.attachment_network_bucket()
  returns text
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  header text;
begin
  begin
    header := nullif(btrim(nullif(current_setting('request.headers', true), '')::json ->> 'cf-connecting-ip'), '');
  exception
    when others then header := null;
  end;
  if header is null then
    return null;
  end if;
  begin
    return private.network_bucket(header::inet, now());
  exception
    when invalid_text_representation then
      return encode(extensions.hmac(convert_to('invalid|' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD'), 'UTF8'),
                                    private.contact_rate_limit_key(), 'sha256'), 'hex');
  end;
end
$$;

revoke all on function private.attachment_network_bucket() from public;

-- ---------------------------------------------------------------- the check

-- The policy's condition runs with anon's rights, so anon must reach it: its own schema, which
-- the API does not expose, holding this one function.
create schema if not exists attachment_access;
revoke all on schema attachment_access from public;
grant usage on schema attachment_access to anon;

-- The policy's condition for anon. False for a name or bucket outside the rules (the plain policy
-- refusal); a 42501 with a sentence for a limit.
create function attachment_access.may_attach(bucket_id text, name text, metadata jsonb)
  returns boolean
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.attachment_limits;
  submission uuid;
  declared bigint;
  stored integer;
  used bigint;
  network text;
begin
  if bucket_id is distinct from 'contact-attachments'
     or name is null
     or name !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  submission := split_part(name, '/', 1)::uuid;
  if exists (select from public.contact_submissions as c where c.id = submission) then
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
   where o.bucket_id = 'contact-attachments' and o.name like submission::text || '/%';
  if stored >= limits.files_per_submission then
    raise exception using errcode = '42501',
      message = format('Too many files for one submission (limit: %s files).', limits.files_per_submission);
  end if;

  select coalesce(sum(e.bytes), 0) into used
    from private.attachment_rate_events as e
   where e.at > now() - limits.global_window;
  if used + declared > limits.global_bytes then
    raise exception using errcode = '42501',
      message = 'The contact form is receiving too many files right now. Try again later.';
  end if;

  network := private.attachment_network_bucket();
  if network is not null then
    select coalesce(sum(e.bytes), 0) into used
      from private.attachment_rate_events as e
     where e.bucket = network and e.at > now() - limits.network_window;
    if used + declared > limits.network_bytes then
      raise exception using errcode = '42501',
        message = 'Too many files from this network. Try again later.';
    end if;
  end if;

  return true;
end
$$;

revoke all on function attachment_access.may_attach(text, text, jsonb) from public;
grant execute on function attachment_access.may_attach(text, text, jsonb) to anon;

comment on function attachment_access.may_attach(text, text, jsonb) is
  'Whether anon may store this object in contact-attachments: name <uuid>/<uuid>, no row yet, within the limits (42501 with a sentence when over one).';

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

-- ---------------------------------------------------------------- counting stored bytes

create function private.attachment_count_bytes()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.bucket_id = 'contact-attachments' then
    insert into private.attachment_rate_events (at, bucket, bytes)
    values (now(), private.attachment_network_bucket(),
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
-- objects) and from the hourly purge (objects a day old whose submission has no row); each leaves
-- when Storage deletes its object (trigger below), so a failed removal is retried on the next run.
-- Each arrival notifies channel `attachment_removal` (the local backend listens) and, on Supabase,
-- calls the Edge Function `attachment-purge` (Vault secrets attachment_purge_url and
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
  'Objects of contact-attachments to remove through the Storage API (purged inquiries, day-old orphans); a row leaves when Storage deletes its object.';

-- Tells the consumers there is work: pg_notify always; on Supabase also a POST to the Edge
-- Function (pg_net, URL and secret from Vault, the secret in a header), never failing the caller.
create function private.announce_attachment_removals()
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  purge_url text;
  purge_secret text;
begin
  perform pg_notify('attachment_removal', '');
  if to_regclass('vault.decrypted_secrets') is null
     or not exists (
       select from pg_catalog.pg_proc as p
       join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
       where n.nspname = 'net' and p.proname = 'http_post'
     ) then
    return;
  end if;
  begin
    execute $sql$
      select max(decrypted_secret) filter (where name = 'attachment_purge_url'),
             max(decrypted_secret) filter (where name = 'attachment_purge_secret')
        from vault.decrypted_secrets
       where name in ('attachment_purge_url', 'attachment_purge_secret')
    $sql$ into purge_url, purge_secret;
    if purge_url is null or purge_secret is null then
      return;
    end if;
    execute $sql$
      select net.http_post(
        url := $1,
        body := '{}'::jsonb,
        headers := jsonb_build_object('content-type', 'application/json', 'x-attachment-purge-secret', $2),
        timeout_milliseconds := 5000
      )
    $sql$ using purge_url, purge_secret;
  exception when others then
    raise warning 'attachment purge call not queued (SQLSTATE %)', sqlstate;
  end;
end
$$;

revoke all on function private.announce_attachment_removals() from public;

-- An inquiry's objects go with it.
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
   where o.bucket_id = 'contact-attachments' and o.name like old.id::text || '/%'
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

-- Day-old objects whose submission has no row (an upload the form never finished), queued.
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
   where o.bucket_id = 'contact-attachments'
     and o.created_at < queue_orphan_attachments.at - interval '24 hours'
     and not exists (
       select from public.contact_submissions as c
        where c.id::text = split_part(o.name, '/', 1)
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
  'Objects of contact-attachments queued for removal through the Storage API (service_role only).';

-- ---------------------------------------------------------------- the purge

-- As before (conversation migration), and: day-old orphans queued, upload events kept 24 hours.
-- The purged inquiries' objects were queued by the delete trigger.
create or replace function private.purge_contact_submissions(at timestamptz default now())
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  retention integer;
  deleted integer;
begin
  select s.retention_days into retention from private.contact_settings as s;
  delete from public.contact_submissions as c
   where (c.status in ('completed', 'declined') and c.completed_at < purge_contact_submissions.at - interval '24 hours')
      or c.created_at < purge_contact_submissions.at - make_interval(days => coalesce(retention, 90));
  get diagnostics deleted = row_count;
  delete from private.response_log as l
   where l.responded_on < (purge_contact_submissions.at at time zone 'UTC')::date - 90;
  delete from private.contact_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  delete from private.thread_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  delete from private.attachment_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  perform private.queue_orphan_attachments(purge_contact_submissions.at);
  return deleted;
end
$$;

-- ---------------------------------------------------------------- left as INFO, on purpose
--
--   * rls_enabled_no_policy on the private tables above: the API roles have no grant on them.
--   * no_primary_key on private.attachment_rate_events: as private.contact_rate_events.
