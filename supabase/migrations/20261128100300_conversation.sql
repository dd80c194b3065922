-- The sealed conversation: after the first message, a thread both sides read, every message sealed
-- in a browser. The database stores ciphertext, who wrote (visitor or which staff account) and
-- when, and a hash of the visitor's mailbox token (contact_submissions.mailbox_hash); it never
-- holds a key that opens a message. The site (/replies) and the staff inbox build on the shapes
-- below.
--
--   * contact_messages holds the thread after the first message. Staff at aal2 read it and add
--     replies; the database stamps direction, author and time. Nobody updates or deletes a message;
--     it is purged with its inquiry (ON DELETE CASCADE).
--   * Visitors reach their thread only through two functions, public.read_thread and
--     public.add_to_thread, which run with the caller's rights and call the privileged part in
--     schema visitor_access, which the API does not expose (Supabase's linter warns on a security
--     definer function that anon may execute in an exposed schema).
--   * Guessing and flooding are limited in the database (private.thread_limits), answered 429 with
--     Retry-After. See "the limits" below for the numbers and why.
--
-- PostgREST runs each request in one transaction and rolls all of it back on an error, so a
-- refusal cannot count itself. What must be counted is therefore never an error: a read of an
-- unknown mailbox answers null (200), a write to one answers 404 through PostgREST's
-- `response.status` setting (the transaction commits, the miss is counted). Only a request over a
-- limit that is already reached raises (429), and it has nothing left to count.
--
-- Runs on a hosted Supabase project, on plain PostgreSQL 15 (pgTAP) and on PGlite (the local
-- backend): core functions only (sha256, decode), pgcrypto's hmac through the network buckets.

-- ---------------------------------------------------------------- who answered

-- A move to responded or engaged by a signed-in staff member (the inbox's status buttons, e.g.
-- after answering on Telegram) records who, so two people do not answer the same client
-- unknowingly. Any status change also clears awaiting_reply_since: staff have handled the
-- inquiry (answered, engaged, or closed it). Sealed replies stamp both through the thread's
-- trigger below. Runs before contact_submissions_stamp_status (triggers fire in name order); the
-- two touch different columns.
create function private.contact_submissions_stamp_thread()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.status is distinct from old.status then
    new.awaiting_reply_since := null;
    if new.status in ('responded', 'engaged') and current_setting('role', true) = 'authenticated' then
      new.responded_by := coalesce(nullif(auth.jwt() ->> 'email', ''), new.responded_by);
    end if;
  end if;
  return new;
end
$$;

revoke all on function private.contact_submissions_stamp_thread() from public;

create trigger contact_submissions_stamp_thread
  before update on public.contact_submissions
  for each row execute function private.contact_submissions_stamp_thread();

-- ---------------------------------------------------------------- the thread

create table public.contact_messages (
  -- Made by the sender once and kept across retries: a replay answers 23505 (409), which senders
  -- read as delivered.
  id uuid not null,
  submission_id uuid not null,
  direction text not null,
  sealed text not null,
  -- The staff account for agency messages, from the token; null for the visitor's.
  author_email text,
  -- The database's clock, never the client's (the trigger overwrites whatever was sent).
  created_at timestamptz not null default now(),

  constraint contact_messages_pkey primary key (id),
  constraint contact_messages_submission_id_fkey foreign key (submission_id)
    references public.contact_submissions (id) on delete cascade,
  constraint contact_messages_direction_check check (direction in ('visitor', 'agency')),
  constraint contact_messages_author_email_check check (
    (direction = 'agency') = (author_email is not null) and char_length(author_email) <= 320
  ),
  -- The submissions' armor checks and bound, in the same order (bounds before format). The
  -- largest message, 5,000 characters of 6-byte JSON escapes padded to 30 KiB and sealed to the
  -- visitor plus 10 agency recipients, armors to about 43,500 characters: under 51,200.
  constraint contact_messages_sealed_bounds_check check (octet_length(sealed) <= 51200),
  constraint contact_messages_sealed_format_check check (private.is_age_armor(sealed))
);

create index contact_messages_submission_id_created_at_idx
  on public.contact_messages (submission_id, created_at);

comment on table public.contact_messages is
  'The sealed conversation after the inquiry itself: replies from staff (insert at aal2) and the visitor''s messages (public.add_to_thread). Purged with the inquiry.';
comment on column public.contact_messages.sealed is
  'The thread message document (src/shared/conversation/thread-message.ts), padded and sealed with age, ASCII armored.';
comment on column public.contact_messages.direction is
  'visitor or agency: stamped by the database from who sent it.';

alter table public.contact_messages enable row level security;
revoke all on table public.contact_messages from public, anon, authenticated;
grant select on table public.contact_messages to authenticated;
grant insert (id, submission_id, sealed) on table public.contact_messages to authenticated;
grant all on table public.contact_messages to service_role;

create policy contact_messages_inbox_select
  on public.contact_messages
  as permissive
  for select
  to authenticated
  using ((select staff_access.is_inbox_reader()));

-- What a staff insert is once the trigger has stamped it: an agency message by the account whose
-- token made the request. The trigger already makes it so; the policy says it on its own.
create policy contact_messages_inbox_insert
  on public.contact_messages
  as permissive
  for insert
  to authenticated
  with check (
    (select staff_access.is_inbox_reader())
    and direction = 'agency'
    -- `(select auth.jwt())`, once per statement, not once per row (the linter's auth_rls_initplan).
    and author_email = (select auth.jwt()) ->> 'email'
    and created_at = now()
  );

-- Who sent it decides what it is, whatever the request said: PostgREST's role setting names the
-- requester even inside security definer functions. anon reaches the table only through
-- visitor_access.add_to_thread (it has no grant), so its rows are the visitor's; a signed-in
-- user's rows are the agency's, by the account in the token; service_role and the owner (staff
-- tooling, tests) say what they insert. The time is always the database's.
--
-- A closed inquiry (completed or declined, purged a day later) takes no more messages either way:
-- 409 thread_closed. A replayed id is let through to the primary key (23505, 409: delivered),
-- even on a thread closed since.
create function private.contact_messages_stamp()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  requester text := current_setting('role', true);
  inquiry_status text;
begin
  new.created_at := now();
  if requester = 'anon' then
    new.direction := 'visitor';
    new.author_email := null;
  elsif requester = 'authenticated' then
    new.direction := 'agency';
    new.author_email := nullif(auth.jwt() ->> 'email', '');
  end if;

  if exists (select from public.contact_messages as m where m.id = new.id) then
    return new;
  end if;
  select c.status into inquiry_status from public.contact_submissions as c where c.id = new.submission_id;
  if inquiry_status in ('completed', 'declined') then
    perform private.pgrst_refusal(
      409, 'thread_closed',
      'This conversation is closed: it takes no more messages and will be deleted soon.'
    );
  end if;
  return new;
end
$$;

revoke all on function private.contact_messages_stamp() from public;

create trigger contact_messages_stamp
  before insert on public.contact_messages
  for each row execute function private.contact_messages_stamp();

-- What a message does to its inquiry. A staff reply answers it: `new` becomes `responded` (the
-- status trigger stamps responded_at and logs the response time), responded_by names the author,
-- nothing awaits any more. A visitor's message waits for an answer and alerts staff, with the
-- inquiry's reference only (its first 8 characters), as a new inquiry does.
create function private.contact_messages_apply()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.direction = 'agency' then
    update public.contact_submissions as c
       set status = case when c.status = 'new' then 'responded' else c.status end,
           responded_by = new.author_email,
           awaiting_reply_since = null
     where c.id = new.submission_id;
  else
    update public.contact_submissions as c
       set awaiting_reply_since = coalesce(c.awaiting_reply_since, new.created_at)
     where c.id = new.submission_id;
    perform private.send_staff_alert(private.staff_alert_payload('contact.message', new.submission_id));
  end if;
  return null;
end
$$;

revoke all on function private.contact_messages_apply() from public;

create trigger contact_messages_apply
  after insert on public.contact_messages
  for each row execute function private.contact_messages_apply();

-- ---------------------------------------------------------------- the limits

-- One row (the primary key can only be true). Change it as the project owner, e.g.
-- `update private.thread_limits set read_limit = 120;`. The numbers:
--
--   * miss_limit / miss_window, 10 per 10 minutes per network (/24 or /64, the submissions'
--     HMAC buckets): tries of a receipt that opens nothing. The site checks the phrase's BIP39
--     checksum before it sends anything, so a typo rarely reaches the database (a wrong word
--     passes the 4-bit checksum one time in 16); a person who kept the wrong receipt gives up long
--     before 10. The mailbox token has 128 bits behind it, so guessing is hopeless at any rate:
--     the limit bounds the load a script can make with lookups that open nothing, not the secret's
--     safety. So a token that opens a thread is looked up first and never refused for its
--     network's misses: nobody on the same /24 (or /64) can lock a visitor out of their own
--     thread. Once reached, only further misses are refused (429) until the oldest leaves the
--     window. Wrong tokens on Storage downloads of reply files count here too.
--   * read_limit / read_window, 60 per hour per mailbox: opening the thread and checking back
--     about once a minute with the page open. Each read returns the whole thread (up to 50 KiB
--     a message), so this bounds what one receipt can pull.
--   * write_limit / write_window, 10 per hour per mailbox: a person adds a few follow-ups, not
--     ten in an hour. Each visitor message alerts staff, so this also caps the alerts one thread
--     can raise, and the storage it can take (10 × 50 KiB an hour).
--
-- A request without cf-connecting-ip (the local backend; Supabase's gateway always sets it)
-- counts its misses in one shared bucket: unlike the form's per-network limit, which would then
-- refuse every visitor's inquiry, here it only slows guessing, and guessing must be limited on
-- every path. Malformed addresses share another, as for the form.
create table private.thread_limits (
  singleton boolean not null default true,
  miss_limit integer not null default 10,
  miss_window interval not null default interval '10 minutes',
  read_limit integer not null default 60,
  read_window interval not null default interval '1 hour',
  write_limit integer not null default 10,
  write_window interval not null default interval '1 hour',
  updated_at timestamptz not null default now(),

  constraint thread_limits_pkey primary key (singleton),
  constraint thread_limits_singleton_check check (singleton),
  constraint thread_limits_counts_check check (
    miss_limit between 1 and 10000 and read_limit between 1 and 10000 and write_limit between 1 and 10000
  ),
  -- Windows stay within a day: no counting event is kept longer than 24 hours.
  constraint thread_limits_windows_check check (
    miss_window between interval '1 minute' and interval '24 hours'
    and read_window between interval '1 minute' and interval '24 hours'
    and write_window between interval '1 minute' and interval '24 hours'
  )
);
insert into private.thread_limits default values;

alter table private.thread_limits enable row level security;
revoke all on table private.thread_limits from public, anon, authenticated;
grant all on table private.thread_limits to service_role;

comment on table private.thread_limits is
  'Limits of the visitor''s thread functions (one row): misses per network, reads and writes per mailbox, each per window.';

-- Misses carry the keyed network bucket (no address); reads and writes carry the inquiry, so they
-- go with it when it is purged. Nothing else: no token, no hash, no content.
create table private.thread_rate_events (
  at timestamptz not null default now(),
  kind text not null,
  network text,
  submission_id uuid references public.contact_submissions (id) on delete cascade,

  constraint thread_rate_events_kind_check check (kind in ('miss', 'read', 'write')),
  constraint thread_rate_events_key_check check (
    (kind = 'miss') = (network is not null) and (kind = 'miss') = (submission_id is null)
  ),
  constraint thread_rate_events_network_check check (network ~ '^[0-9a-f]{64}$')
);
create index thread_rate_events_network_at_idx on private.thread_rate_events (network, at) where kind = 'miss';
create index thread_rate_events_submission_id_kind_at_idx on private.thread_rate_events (submission_id, kind, at);
create index thread_rate_events_at_idx on private.thread_rate_events (at);

alter table private.thread_rate_events enable row level security;
revoke all on table private.thread_rate_events from public, anon, authenticated;
grant select, delete on table private.thread_rate_events to service_role;

comment on table private.thread_rate_events is
  'Rate-limit events of the visitor''s thread functions: misses by HMAC network bucket, reads and writes by inquiry. Deleted by the purge after 24 hours, or with the inquiry.';

create function private.current_thread_limits()
  returns private.thread_limits
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  limits private.thread_limits;
begin
  select * into limits from private.thread_limits;
  if not found then
    -- The settings row was deleted: the defaults still hold, never "no limit".
    limits := row(true, 10, interval '10 minutes', 60, interval '1 hour', 10, interval '1 hour', now());
  end if;
  return limits;
end
$$;

revoke all on function private.current_thread_limits() from public;

-- Counts one miss (a mailbox token that opens nothing) against the request's network, or
-- counts nothing when the network is at its limit: null when counted, else the seconds until its
-- oldest miss leaves the window. Without cf-connecting-ip, one shared bucket.
create function private.count_mailbox_miss()
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  limits private.thread_limits := private.current_thread_limits();
  bucket text := coalesce(private.request_network_bucket(), private.keyed_bucket('unknown', now()));
  counted integer;
  oldest timestamptz;
begin
  -- Two requests from one network cannot both see room for one more miss; other networks do not
  -- wait for it.
  perform pg_advisory_xact_lock(hashtext('thread network'), hashtext(bucket));
  select count(*), min(e.at) into counted, oldest
    from private.thread_rate_events as e
   where e.kind = 'miss' and e.network = bucket and e.at > now() - limits.miss_window;
  if counted >= limits.miss_limit then
    return private.retry_after(oldest, limits.miss_window);
  end if;
  insert into private.thread_rate_events (kind, network) values ('miss', bucket);
  return null;
end
$$;

revoke all on function private.count_mailbox_miss() from public;

-- The inquiry a mailbox token opens, or null, counting a miss against the request's network. A
-- malformed token is refused (400) uncounted: it cannot open anything. A token that opens an
-- inquiry is answered whatever its network did; a miss from a network over its misses is refused
-- (429).
create function private.open_mailbox(mailbox_token text)
  returns uuid
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  inquiry uuid;
  wait integer;
begin
  if mailbox_token is null or mailbox_token !~ '^[0-9a-f]{64}$' then
    perform private.pgrst_refusal(
      400, 'mailbox_token_invalid',
      'The mailbox token must be 64 lowercase hexadecimal characters (derived from the receipt).'
    );
  end if;

  select c.id into inquiry
    from public.contact_submissions as c
   where c.mailbox_hash = pg_catalog.sha256(decode(mailbox_token, 'hex'));
  if inquiry is null then
    wait := private.count_mailbox_miss();
    if wait is not null then
      perform private.pgrst_refusal(
        429, 'thread_network_limit',
        'Too many receipts that open no conversation were tried from this network. Try again later.',
        wait
      );
    end if;
  end if;
  return inquiry;
end
$$;

revoke all on function private.open_mailbox(text) from public;

-- Counts one read or write of an inquiry's thread, or refuses it (429) when the window is full.
create function private.count_thread_use(inquiry uuid, action text)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  limits private.thread_limits := private.current_thread_limits();
  use_limit integer := case action when 'read' then limits.read_limit else limits.write_limit end;
  use_window interval := case action when 'read' then limits.read_window else limits.write_window end;
  counted integer;
  oldest timestamptz;
begin
  -- Two requests for one mailbox cannot both see room for one more; other mailboxes do not wait.
  perform pg_advisory_xact_lock(hashtext('thread ' || action), hashtext(inquiry::text));
  select count(*), min(e.at) into counted, oldest
    from private.thread_rate_events as e
   where e.submission_id = inquiry and e.kind = action and e.at > now() - use_window;
  if counted >= use_limit then
    perform private.pgrst_refusal(
      429,
      case action when 'read' then 'thread_read_limit' else 'thread_write_limit' end,
      case action
        when 'read' then 'This conversation was opened too often in the last hour. Try again later.'
        else 'Too many messages were added to this conversation in the last hour. Try again later.'
      end,
      private.retry_after(oldest, use_window)
    );
  end if;
  insert into private.thread_rate_events (kind, submission_id) values (action, inquiry);
end
$$;

revoke all on function private.count_thread_use(uuid, text) from public;

-- ---------------------------------------------------------------- the visitor's functions

-- The privileged part, in a schema the API does not expose; anon may use it only through the two
-- wrappers in public, which run with anon's rights.
create schema if not exists visitor_access;
revoke all on schema visitor_access from public;
grant usage on schema visitor_access to anon, service_role;

-- The thread, oldest first, the inquiry itself as its first message; null for an unknown mailbox.
-- delete_by, for a closed thread, is the latest time the hourly purge removes it: a day after
-- closing (or at the retention cap, if sooner), plus the hour between runs.
create function visitor_access.read_thread(mailbox_token text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  inquiry_id uuid := private.open_mailbox(mailbox_token);
  inquiry public.contact_submissions;
  retention integer;
begin
  if inquiry_id is null then
    return null;
  end if;
  select * into inquiry from public.contact_submissions as c where c.id = inquiry_id;
  perform private.count_thread_use(inquiry.id, 'read');
  select s.retention_days into retention from private.contact_settings as s;

  return jsonb_build_object(
    'reference', left(inquiry.id::text, 8),
    'status', case
      when inquiry.status = 'new' then 'received'
      when inquiry.status in ('responded', 'engaged') then 'answered'
      else 'closed'
    end,
    'delete_by', case
      when inquiry.status in ('completed', 'declined') then
        least(inquiry.completed_at + interval '24 hours',
              inquiry.created_at + make_interval(days => coalesce(retention, 90))) + interval '1 hour'
    end,
    'messages', (
      select jsonb_agg(
               jsonb_build_object('id', m.id, 'direction', m.direction, 'sealed', m.sealed, 'created_at', m.created_at)
               order by m.created_at, m.is_inquiry desc, m.id)
        from (
          select inquiry.id, 'visitor'::text as direction, inquiry.sealed, inquiry.created_at, true as is_inquiry
          union all
          select t.id, t.direction, t.sealed, t.created_at, false
            from public.contact_messages as t
           where t.submission_id = inquiry.id
        ) as m
    )
  );
end
$$;

-- A visitor's message, sealed in their browser. Unknown mailbox: 404 thread_not_found, answered
-- through PostgREST's response.status so that the transaction commits and the miss counts.
-- A replayed message_id reaches the primary key before any limit (23505, 409: delivered);
-- a closed thread answers 409 thread_closed; then the write limit; bad armor 400 (23514).
create function visitor_access.add_to_thread(mailbox_token text, message_id uuid, sealed text)
  returns jsonb
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  inquiry uuid := private.open_mailbox(mailbox_token);
  stored public.contact_messages;
begin
  if inquiry is null then
    perform set_config('response.status', '404', true);
    return jsonb_build_object(
      'code', 'thread_not_found',
      'details', null,
      'hint', null,
      'message', 'No conversation has this receipt.'
    );
  end if;
  if not exists (select from public.contact_messages as m where m.id = message_id) then
    if exists (
      select from public.contact_submissions as c
       where c.id = inquiry and c.status in ('completed', 'declined')
    ) then
      perform private.pgrst_refusal(
        409, 'thread_closed',
        'This conversation is closed: it takes no more messages and will be deleted soon.'
      );
    end if;
    perform private.count_thread_use(inquiry, 'write');
  end if;
  insert into public.contact_messages as m (id, submission_id, direction, sealed)
  values (message_id, inquiry, 'visitor', add_to_thread.sealed)
  returning * into stored;
  return jsonb_build_object('id', stored.id, 'created_at', stored.created_at);
end
$$;

revoke all on function visitor_access.read_thread(text), visitor_access.add_to_thread(text, uuid, text) from public;
grant execute on function visitor_access.read_thread(text), visitor_access.add_to_thread(text, uuid, text)
  to anon, service_role;

-- What the API serves (POST /rest/v1/rpc/read_thread, /rpc/add_to_thread): the caller's rights,
-- so nothing here runs as the owner; volatile, so PostgREST runs them read-write (they count).
create function public.read_thread(mailbox_token text)
  returns jsonb
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  select visitor_access.read_thread(mailbox_token)
$$;

create function public.add_to_thread(mailbox_token text, message_id uuid, sealed text)
  returns jsonb
  language sql
  volatile
  security invoker
  set search_path = ''
as $$
  select visitor_access.add_to_thread(mailbox_token, message_id, sealed)
$$;

comment on function public.read_thread(text) is
  'The visitor''s thread by mailbox token: {reference, status, delete_by, messages[{id, direction, sealed, created_at}]}, or null. Rate-limited (429).';
comment on function public.add_to_thread(text, uuid, text) is
  'Adds the visitor''s sealed message: {id, created_at}; 404 thread_not_found, 409 thread_closed or replay, 429 over a limit.';

revoke all on function public.read_thread(text), public.add_to_thread(text, uuid, text) from public, anon, authenticated;
grant execute on function public.read_thread(text), public.add_to_thread(text, uuid, text) to anon, service_role;
