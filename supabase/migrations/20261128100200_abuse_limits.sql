-- Abuse limits for anonymous inserts, enforced by the database, so they hold for a script that
-- skips the site as much as for the form (without them, one 1 MiB request inserted 22,000 rows and
-- four connections added 540,000 rows in ten seconds). The conversation and the files have limits
-- of their own in their migrations; the helpers here (network buckets, refusals) serve all three.
--
--   * One row per request: a second row in the same statement (a JSON array body) is refused
--     with 400 before any limit is counted, so an array never reads as "try again later".
--   * Per network: at most `network_limit` (5) rows per `network_window` (10 minutes) from one
--     /24 (IPv4) or /64 (IPv6). The network comes from `cf-connecting-ip`, which Supabase's
--     gateway sets and PostgREST exposes in `request.headers`. It is never stored: the bucket is
--     HMAC-SHA256(prefix || UTC day, secret), a value that changes every day and cannot be
--     reversed without the secret, and the hourly purge deletes each event once no window needs
--     it (after 24 hours: no window is longer).
--   * Globally: at most `global_limit` (200) rows per `global_window` (1 hour) from anon, whatever
--     the network; the insert that reaches the cap alerts staff ('contact.limit'), at most once an
--     hour. Without the header only this cap applies: a missing header must never put every
--     visitor into one shared per-network bucket.
--   * No queue: a visitor's insert never waits for another network's. Requests of one network
--     take turns on a lock of their own (for at most a second, then 429); the global cap is a
--     set of slots taken without waiting (see "the global cap" below). Both stay exact however
--     many requests arrive at once (supabase/concurrent-limits.test.ts runs them in parallel).
--   * Over a limit: PostgREST's `PGRST` raise, answered 429 with Retry-After (the site's outbox
--     treats it as "try again later").
--   * A replayed id (the outbox resending a row already stored) is let through to the primary key
--     and answers 23505/409 ("already received"), never 429, and is not counted.
--
-- A refused statement rolls back its own counting, so only stored rows count. The limits apply to
-- anon only: staff tooling and service_role are not limited.
--
-- Runs on Supabase, plain PostgreSQL 15 and PGlite: pgcrypto (schema extensions) provides hmac()
-- and gen_random_bytes(); Vault is used through dynamic SQL where it exists.

-- ---------------------------------------------------------------- refusals

-- PostgREST answers a 'PGRST' raise with the status and headers in DETAIL and the body in MESSAGE
-- (code, message, details, hint), as the local backend does. DETAIL must be a JSON object with
-- both "status" and "headers" (PgRaiseErrDetails in PostgREST's src/PostgREST/Error.hs, v12 to
-- v14), or PostgREST answers 500 PGRST121 instead.
create function private.pgrst_refusal(status integer, code text, message text, retry_after integer default null)
  returns void
  language plpgsql
  volatile
  set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = format('{"code":%s,"message":%s,"details":null,"hint":null}', to_json(code), to_json(message)),
    detail = case
      when retry_after is null then format('{"status":%s,"headers":{}}', status)
      else format('{"status":%s,"headers":{"Retry-After":"%s"}}', status, retry_after)
    end;
end
$$;

revoke all on function private.pgrst_refusal(integer, text, text, integer) from public;

-- Seconds until the oldest event of a full window leaves it: the Retry-After of a 429.
create function private.retry_after(oldest timestamptz, time_window interval)
  returns integer
  language sql
  stable
  set search_path = ''
as $$
  select greatest(1, ceil(extract(epoch from oldest + time_window - now())))::integer
$$;

revoke all on function private.retry_after(timestamptz, interval) from public;

-- ---------------------------------------------------------------- settings

-- One row (the primary key can only be true). Staff change it as the project owner, e.g.
-- `update private.contact_limits set global_limit = 500;` (tests change it too).
create table private.contact_limits (
  singleton boolean not null default true,
  network_limit integer not null default 5,
  network_window interval not null default interval '10 minutes',
  global_limit integer not null default 200,
  global_window interval not null default interval '1 hour',
  updated_at timestamptz not null default now(),

  constraint contact_limits_pkey primary key (singleton),
  constraint contact_limits_singleton_check check (singleton),
  constraint contact_limits_network_limit_check check (network_limit between 1 and 10000),
  constraint contact_limits_global_limit_check check (global_limit between 1 and 1000000),
  -- Windows stay within a day: no counting event is ever kept longer than 24 hours.
  constraint contact_limits_network_window_check check (network_window between interval '1 minute' and interval '24 hours'),
  constraint contact_limits_global_window_check check (global_window between interval '1 minute' and interval '24 hours')
);

alter table private.contact_limits enable row level security;
revoke all on table private.contact_limits from public, anon, authenticated;
grant all on table private.contact_limits to service_role;

comment on table private.contact_limits is
  'Abuse limits for anonymous inserts (one row): per /24 or /64 network and global, each per window.';

-- ---------------------------------------------------------------- the HMAC secret

-- Used only where Vault is missing (PGlite, plain PostgreSQL). On Supabase the secret is the Vault
-- secret `contact_rate_limit_secret`, created below if absent, so it never sits in a table.
create table private.contact_rate_limit_secret (
  singleton boolean not null default true,
  secret bytea not null,
  created_at timestamptz not null default now(),

  constraint contact_rate_limit_secret_pkey primary key (singleton),
  constraint contact_rate_limit_secret_singleton_check check (singleton),
  constraint contact_rate_limit_secret_secret_check check (octet_length(secret) >= 32)
);

alter table private.contact_rate_limit_secret enable row level security;
revoke all on table private.contact_rate_limit_secret from public, anon, authenticated, service_role;

do $secret$
declare
  in_vault boolean := false;
begin
  if to_regclass('vault.secrets') is not null then
    begin
      execute 'select exists (select from vault.secrets where name = $1)'
        into in_vault using 'contact_rate_limit_secret';
      if not in_vault then
        execute 'select vault.create_secret($1, $2, $3)'
          using encode(extensions.gen_random_bytes(32), 'hex'), 'contact_rate_limit_secret',
                'HMAC key of the contact form''s per-network rate-limit buckets';
        in_vault := true;
      end if;
    exception
      when others then
        raise notice 'Vault secret contact_rate_limit_secret not created (%): using a private table', sqlerrm;
        in_vault := false;
    end;
  end if;
  if not in_vault then
    insert into private.contact_rate_limit_secret (secret) values (extensions.gen_random_bytes(32));
  end if;
end
$secret$;

-- The key, from Vault where it exists, else from the private table (created on first use if the
-- migration could not fill it). Never returned to any API role.
create function private.contact_rate_limit_key()
  returns bytea
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  key bytea;
begin
  if to_regclass('vault.decrypted_secrets') is not null then
    begin
      execute 'select convert_to(decrypted_secret, ''UTF8'') from vault.decrypted_secrets where name = $1'
        into key using 'contact_rate_limit_secret';
    exception
      when others then key := null;
    end;
  end if;
  if key is null then
    select s.secret into key from private.contact_rate_limit_secret as s;
  end if;
  if key is null then
    insert into private.contact_rate_limit_secret (secret) values (extensions.gen_random_bytes(32))
    on conflict (singleton) do nothing;
    select s.secret into key from private.contact_rate_limit_secret as s;
  end if;
  return key;
end
$$;

revoke all on function private.contact_rate_limit_key() from public;

-- ---------------------------------------------------------------- buckets

-- A keyed bucket for a label on a given UTC day: HMAC-SHA256 over "<label>|<day>", hex.
create function private.keyed_bucket(label text, at timestamptz default now())
  returns text
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select encode(
    extensions.hmac(
      convert_to(label || '|' || to_char(at at time zone 'UTC', 'YYYY-MM-DD'), 'UTF8'),
      private.contact_rate_limit_key(),
      'sha256'
    ),
    'hex'
  )
$$;

revoke all on function private.keyed_bucket(text, timestamptz) from public;

-- The bucket of a client address on a given UTC day: the keyed bucket of its /24 or /64
-- ('203.0.113.0/24|2026-11-22'). IPv4-mapped IPv6 addresses count as their IPv4 /24, or every
-- such client would share one /64.
create function private.network_bucket(address inet, at timestamptz default now())
  returns text
  language plpgsql
  stable
  security definer
  set search_path = ''
as $$
declare
  client inet := address;
begin
  if client is null then
    return null;
  end if;
  if family(client) = 6 and client << inet '::ffff:0.0.0.0/96' then
    client := substring(host(client) from '([0-9.]+)$')::inet;
  end if;
  return private.keyed_bucket(
    network(set_masklen(client, case family(client) when 4 then 24 else 64 end))::text, at
  );
end
$$;

revoke all on function private.network_bucket(inet, timestamptz) from public;

comment on function private.network_bucket(inet, timestamptz) is
  'HMAC-SHA256(/24 or /64 network || UTC day, secret) as hex: the per-network rate-limit key. Stores nothing.';

-- The request's network bucket, from the cf-connecting-ip the gateway gave (PostgREST and Storage
-- both set request.headers); null without a usable header. A malformed value is not a missing one:
-- all such requests share one bucket ('invalid'), so garbage cannot bypass a per-network limit.
-- Only an unparsable address lands there: any other failure is a fault to surface.
create function private.request_network_bucket()
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
      return private.keyed_bucket('invalid', now());
  end;
end
$$;

revoke all on function private.request_network_bucket() from public;

-- ---------------------------------------------------------------- the form's events

-- One row per stored anonymous submission that came with a usable header: when, and the keyed
-- network bucket. No address, no id: it says that someone in some network sent something.
create table private.contact_rate_events (
  at timestamptz not null default now(),
  bucket text not null,

  constraint contact_rate_events_bucket_check check (bucket ~ '^[0-9a-f]{64}$')
);
create index contact_rate_events_bucket_at_idx on private.contact_rate_events (bucket, at);
create index contact_rate_events_at_idx on private.contact_rate_events (at);

alter table private.contact_rate_events enable row level security;
revoke all on table private.contact_rate_events from public, anon, authenticated;
grant select, delete on table private.contact_rate_events to service_role;

comment on table private.contact_rate_events is
  'Rate-limit events: time and HMAC network bucket of each anonymous submission; deleted by the purge after 24 hours.';

-- When the global cap last alerted staff, so a flood alerts once an hour, not once a row.
create table private.contact_limit_alerts (
  singleton boolean not null default true,
  alerted_at timestamptz not null,

  constraint contact_limit_alerts_pkey primary key (singleton),
  constraint contact_limit_alerts_singleton_check check (singleton)
);
alter table private.contact_limit_alerts enable row level security;
revoke all on table private.contact_limit_alerts from public, anon, authenticated;
grant select on table private.contact_limit_alerts to service_role;

-- ---------------------------------------------------------------- waiting for a network

-- Requests of one network take turns where a limit counts them (two requests from one network must
-- not both see room for one more), and only there: the key is the scope and the network's bucket,
-- so no request ever waits for another network's. The wait is bounded well under anon's 3 s
-- statement timeout: a network whose own requests hold the lock longer is answered 429 with
-- Retry-After 1 (the site's outbox tries again), never 500.
create function private.take_turn(scope text, bucket text, code text)
  returns void
  language plpgsql
  set search_path = ''
as $$
declare
  previous text := current_setting('lock_timeout');
begin
  perform set_config('lock_timeout', '1s', true);
  begin
    perform pg_advisory_xact_lock(hashtext(scope), hashtext(bucket));
  exception
    when lock_not_available then
      perform set_config('lock_timeout', previous, true);
      perform private.pgrst_refusal(
        429, code, 'Too many requests at once from this network. Try again in a moment.', 1
      );
  end;
  perform set_config('lock_timeout', previous, true);
end
$$;

revoke all on function private.take_turn(text, text, text) from public;

-- ---------------------------------------------------------------- the global cap: slots

-- The global cap as global_limit slots, one per row the window may hold: a stored anonymous row
-- holds a slot from its arrival until the window has passed, and a slot is free when the row that
-- held it is older than the window. Every accepted row holds a different slot and a slot is held
-- once per window, so no window ever holds more than global_limit rows, however many requests
-- arrive at once. A request takes any free slot that no other request in flight has taken (FOR
-- UPDATE SKIP LOCKED): it never waits for another visitor, and when every free slot is taken by
-- requests in flight it is refused at once (429), as it would be a moment later. Kept to
-- global_limit rows by the trigger on private.contact_limits below.
create table private.contact_slots (
  slot integer not null,
  taken_at timestamptz not null default '-infinity',

  constraint contact_slots_pkey primary key (slot)
);

alter table private.contact_slots enable row level security;
revoke all on table private.contact_slots from public, anon, authenticated;
grant select on table private.contact_slots to service_role;

comment on table private.contact_slots is
  'The global cap of anonymous inserts: one row per row a window may hold, and when it last held one. No id, no network.';

-- As many slots as the cap. A lower cap keeps the slots taken last, so the rows already in the
-- window still count against it.
create function private.contact_limits_size_slots()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  held integer;
begin
  select count(*) into held from private.contact_slots;
  if held < new.global_limit then
    insert into private.contact_slots (slot)
    select coalesce((select max(s.slot) from private.contact_slots as s), 0) + n
      from generate_series(1, new.global_limit - held) as n;
  elsif held > new.global_limit then
    delete from private.contact_slots
     where slot in (
       select s.slot from private.contact_slots as s
        order by s.taken_at, s.slot
        limit held - new.global_limit
     );
  end if;
  return null;
end
$$;

revoke all on function private.contact_limits_size_slots() from public;

create trigger contact_limits_size_slots
  after insert or update of global_limit on private.contact_limits
  for each row execute function private.contact_limits_size_slots();

insert into private.contact_limits default values;

-- ---------------------------------------------------------------- the guard

create function private.contact_submissions_limit_anon()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  limits private.contact_limits;
  statement_key text := statement_timestamp()::text;
  seen text;
  client_bucket text;
  start_at integer;
  slot_taken integer;
  counted integer;
  oldest timestamptz;
  alerting boolean;
begin
  -- PostgREST runs the request as `set_config('role', 'anon', true)`; inside this function (run
  -- as its owner) the role setting still names the requester.
  if current_setting('role', true) is distinct from 'anon' then
    return new;
  end if;

  -- One row per statement: every row of a statement shares its statement_timestamp(), so a
  -- second row with the same one is an array body. Checked first, before anything is counted.
  seen := current_setting('contact_limits.statement', true);
  if seen = statement_key then
    perform private.pgrst_refusal(
      400, 'contact_one_row',
      'One submission per request: the contact form inserts a single row (limit: 1 row per insert).'
    );
  end if;
  perform set_config('contact_limits.statement', statement_key, true);

  -- A replay of a stored row: the primary key answers it (23505, 409 "already received").
  if exists (select from public.contact_submissions as c where c.id = new.id) then
    return new;
  end if;

  select * into limits from private.contact_limits;
  if not found then
    -- The settings row was deleted: the defaults still hold, never "no limit" (and the slots
    -- keep the last cap).
    limits := row(true, 5, interval '10 minutes', 200, interval '1 hour', now());
  end if;

  -- Per network, counted under the network's own turn.
  client_bucket := private.request_network_bucket();
  if client_bucket is not null then
    perform private.take_turn('contact network', client_bucket, 'contact_network_busy');
    select count(*), min(e.at) into counted, oldest
      from private.contact_rate_events as e
     where e.bucket = client_bucket and e.at > now() - limits.network_window;
    if counted >= limits.network_limit then
      perform private.pgrst_refusal(
        429, 'contact_network_limit',
        'Too many submissions from this network. Try again later.',
        private.retry_after(oldest, limits.network_window)
      );
    end if;
  end if;

  -- Globally: a free slot, or a refusal. The search starts at a random slot, so requests at once
  -- seldom meet at the same one and taken slots stay spread out: it passes about
  -- 1 / (1 - the share taken) slots before a free one, whatever the cap.
  start_at := 1 + floor(random() * coalesce((select max(s.slot) from private.contact_slots as s), 0));
  select s.slot into slot_taken
    from private.contact_slots as s
   where s.slot >= start_at and s.taken_at <= now() - limits.global_window
   order by s.slot
   limit 1
   for update skip locked;
  if slot_taken is null then
    select s.slot into slot_taken
      from private.contact_slots as s
     where s.slot < start_at and s.taken_at <= now() - limits.global_window
     order by s.slot
     limit 1
     for update skip locked;
  end if;
  if slot_taken is null then
    select min(s.taken_at) into oldest
      from private.contact_slots as s
     where s.taken_at > now() - limits.global_window;
    perform private.pgrst_refusal(
      429, 'contact_global_limit',
      'The contact form is receiving too many submissions right now. Try again later.',
      -- 1 s when no slot is in the window: the free ones are all taken by requests in flight.
      private.retry_after(oldest, limits.global_window)
    );
  end if;
  update private.contact_slots set taken_at = now() where slot = slot_taken;

  if client_bucket is not null then
    insert into private.contact_rate_events (at, bucket) values (now(), client_bucket);
  end if;

  -- This row took the last free slot: the next ones will be refused, so staff hear of it now (a
  -- refused insert rolls back and could not alert), at most once an hour. Rows that take the last
  -- slots at the same instant each see the others' as free; then the alert comes with the next row
  -- that takes a slot once one frees.
  if not exists (
    select from private.contact_slots as s
     where s.taken_at <= now() - limits.global_window and s.slot <> slot_taken
  ) then
    insert into private.contact_limit_alerts as a (alerted_at) values (now())
    on conflict (singleton) do update set alerted_at = excluded.alerted_at
     where a.alerted_at <= now() - interval '1 hour'
    returning true into alerting;
    if alerting then
      perform private.send_staff_alert(private.staff_alert_payload('contact.limit'));
    end if;
  end if;

  return new;
end
$$;

revoke all on function private.contact_submissions_limit_anon() from public;

-- Named to fire first among the BEFORE INSERT triggers (they fire in name order): a refused
-- request costs no key lookup.
create trigger contact_submissions_limit_anon
  before insert on public.contact_submissions
  for each row execute function private.contact_submissions_limit_anon();
