-- Abuse limits: one row per request, 5 per 10 minutes per /24 or /64 network, a global
-- cap (slots) with one staff alert an hour, 429 with Retry-After over a limit, and a replay that
-- still answers 23505. Concurrent requests: supabase/concurrent-limits.test.ts. Requests are simulated as PostgREST makes them: `set local role anon` and the
-- request headers in `request.headers` (cf-connecting-ip as Supabase's gateway sets it).
-- Every statement below is one request: the database tells rows of one statement apart from
-- rows of the next by statement_timestamp(), and now() is the same for the whole test.
begin;

select plan(57);

-- Sealed rows the limits never look inside: pg_temp.armor(), pg_temp.key_id().
\ir fixtures/sealed-row.psql

create function pg_temp.insert_sql(id uuid default gen_random_uuid()) returns text language sql as $$
  select format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, gen_random_bytes(32))', id, pg_temp.armor(), pg_temp.key_id())
$$;

-- Sends one insert from `address` (null: no cf-connecting-ip header) and reports the outcome as
-- PostgREST would see it: 'ok', or SQLSTATE, message and detail of the refusal.
create function pg_temp.send(address text, id uuid default gen_random_uuid(), sql text default null)
returns text language plpgsql as $$
declare
  message text;
  detail text;
begin
  perform set_config(
    'request.headers',
    case when address is null then '{"user-agent":"pgTAP"}' else json_build_object('cf-connecting-ip', address)::text end,
    true
  );
  execute coalesce(sql, pg_temp.insert_sql(id));
  return 'ok';
exception when others then
  get stacked diagnostics message = message_text, detail = pg_exception_detail;
  return sqlstate || ' ' || message || coalesce(' ' || nullif(detail, ''), '');
end
$$;

-- Staff alerts land in private.test_alerts instead of being sent.
\ir fixtures/captured-alerts.psql

-- ---------------------------------------------------------------- settings and storage

select results_eq(
  $$ select network_limit, network_window, global_limit, global_window from private.contact_limits $$,
  $$ values (5, interval '10 minutes', 200, interval '1 hour') $$,
  'the settings row holds the defaults: 5 per 10 minutes per network, 200 an hour in all'
);
select ok(
  (select count(*) = 1 from private.contact_rate_limit_secret where octet_length(secret) = 32)
  or to_regclass('vault.secrets') is not null,
  'without Vault, the HMAC secret is 32 random bytes in a private table'
);
select table_privs_are('private', 'contact_limits', 'anon', array[]::text[], 'anon has no right on the limits');
select table_privs_are('private', 'contact_rate_events', 'anon', array[]::text[], 'anon has no right on the rate events');
select table_privs_are('private', 'contact_slots', 'anon', array[]::text[], 'anon has no right on the global cap''s slots');
select is((select count(*)::int from private.contact_slots where taken_at = '-infinity'), 200, 'the global cap is 200 free slots');
select table_privs_are('private', 'contact_rate_limit_secret', 'service_role', array[]::text[], 'not even service_role reads the secret table');

-- ---------------------------------------------------------------- per network (IPv4 /24)

set local role anon;
select set_config('request.jwt.claims', '{"role":"anon"}', true);
select is(pg_temp.send('203.0.113.7', '10000000-0000-4000-8000-000000000001'), 'ok', '1st from 203.0.113.0/24 is accepted');
select is(pg_temp.send('203.0.113.7'), 'ok', '2nd is accepted');
select is(pg_temp.send('203.0.113.8'), 'ok', '3rd (another host in the /24) is accepted');
select is(pg_temp.send('203.0.113.250'), 'ok', '4th is accepted');
select is(pg_temp.send('203.0.113.7'), 'ok', '5th is accepted');
select is(
  pg_temp.send('203.0.113.99'),
  'PGRST {"code":"contact_network_limit","message":"Too many submissions from this network. Try again later.","details":null,"hint":null} {"status":429,"headers":{"Retry-After":"600"}}',
  'the 6th in 10 minutes from the /24 is refused: PGRST → HTTP 429 with Retry-After'
);
select is(
  pg_temp.send('::ffff:203.0.113.5'),
  'PGRST {"code":"contact_network_limit","message":"Too many submissions from this network. Try again later.","details":null,"hint":null} {"status":429,"headers":{"Retry-After":"600"}}',
  'the same network written as an IPv4-mapped IPv6 address is the same bucket'
);
select is(
  pg_temp.send('203.0.113.7', '10000000-0000-4000-8000-000000000001'),
  '23505 duplicate key value violates unique constraint "contact_submissions_pkey"',
  'a replayed id from the limited network still answers 23505 (409, already received), not 429'
);
select is(pg_temp.send('203.0.114.7'), 'ok', 'the neighbouring /24 is not limited');
select is(pg_temp.send(null), 'ok', 'without cf-connecting-ip the per-network limit does not apply');
select is(pg_temp.send(null), 'ok', 'nor to a second request without it (no shared bucket for the unknown)');
select is(pg_temp.send(''), 'ok', 'an empty header counts as missing');
reset role;

-- ---------------------------------------------------------------- per network (IPv6 /64)

set local role anon;
select is(pg_temp.send('2001:db8:1:2::1'), 'ok', '1st from 2001:db8:1:2::/64');
select is(pg_temp.send('2001:db8:1:2::2'), 'ok', '2nd');
select is(pg_temp.send('2001:db8:1:2:aaaa::3'), 'ok', '3rd (another address in the /64)');
select is(pg_temp.send('2001:db8:1:2::4'), 'ok', '4th');
select is(pg_temp.send('2001:db8:1:2:ffff:ffff:ffff:ffff'), 'ok', '5th');
select matches(pg_temp.send('2001:db8:1:2::6'), '^PGRST \{"code":"contact_network_limit"', 'the 6th from the /64 is refused');
select is(pg_temp.send('2001:db8:1:3::1'), 'ok', 'the next /64 is not limited');
reset role;

-- ---------------------------------------------------------------- malformed addresses

set local role anon;
select is(pg_temp.send('not-an-address'), 'ok', '1st with a malformed cf-connecting-ip');
select is(pg_temp.send('999.1.1.1'), 'ok', '2nd, another malformed value');
select is(pg_temp.send('203.0.113'), 'ok', '3rd');
select is(pg_temp.send('::gggg'), 'ok', '4th');
select is(pg_temp.send('localhost'), 'ok', '5th');
select matches(
  pg_temp.send('yet-another-value'),
  '^PGRST \{"code":"contact_network_limit"',
  'every malformed value shares one bucket: garbage cannot dodge the per-network limit'
);
reset role;

-- ---------------------------------------------------------------- what is stored

select is(
  (select count(*)::int from private.contact_rate_events where bucket = private.network_bucket('203.0.113.1', now())),
  5,
  'the /24 has 5 events under its bucket'
);
select is(
  private.network_bucket('203.0.113.1', now()),
  encode(extensions.hmac(convert_to('203.0.113.0/24|' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD'), 'UTF8'), private.contact_rate_limit_key(), 'sha256'), 'hex'),
  'the bucket is HMAC-SHA256(network prefix || UTC day, secret)'
);
select is(
  private.network_bucket('2001:db8:1:2::1', now()),
  encode(extensions.hmac(convert_to('2001:db8:1:2::/64|' || to_char(now() at time zone 'UTC', 'YYYY-MM-DD'), 'UTF8'), private.contact_rate_limit_key(), 'sha256'), 'hex'),
  'an IPv6 bucket keys the /64'
);
select isnt(
  private.network_bucket('203.0.113.1', now()),
  private.network_bucket('203.0.113.1', now() + interval '1 day'),
  'buckets change with the UTC day'
);
select is(
  (select count(*)::int from private.contact_rate_events as e
    where e::text ~ '203\.0\.11|2001:db8|ffff'),
  0,
  'no address or prefix is stored, only keyed hashes and times'
);
select is(
  (select count(*)::int from private.contact_slots where taken_at > now() - interval '1 hour')
    - (select count(*)::int from private.contact_rate_events),
  3,
  'requests without a usable header count only toward the global cap: a slot, no network event'
);

-- Eleven minutes later (every event and slot moved back) the network may send again.
update private.contact_rate_events set at = at - interval '11 minutes';
update private.contact_slots set taken_at = taken_at - interval '11 minutes' where taken_at > '-infinity';
set local role anon;
select is(pg_temp.send('203.0.113.7'), 'ok', 'after the window the network is accepted again');
reset role;

-- ---------------------------------------------------------------- one row per request

set local role anon;
select is(
  pg_temp.send('198.51.100.1', sql => format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (gen_random_uuid(), %1$L, %2$L, gen_random_bytes(32)), (gen_random_uuid(), %1$L, %2$L, gen_random_bytes(32))',
    pg_temp.armor(), pg_temp.key_id())),
  'PGRST {"code":"contact_one_row","message":"One submission per request: the contact form inserts a single row (limit: 1 row per insert).","details":null,"hint":null} {"status":400,"headers":{}}',
  'an array of two rows is refused: PGRST → HTTP 400 naming the limit'
);
select is(
  pg_temp.send('198.51.100.1', sql => format(
    'insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) select gen_random_uuid(), %L, %L, gen_random_bytes(32) from generate_series(1, 5000)',
    pg_temp.armor(), pg_temp.key_id())),
  'PGRST {"code":"contact_one_row","message":"One submission per request: the contact form inserts a single row (limit: 1 row per insert).","details":null,"hint":null} {"status":400,"headers":{}}',
  'so is a 5,000-row statement'
);
select is(pg_temp.send('198.51.100.1'), 'ok', 'the refused arrays counted nothing: a single row from that network is accepted');
reset role;

-- ---------------------------------------------------------------- the global cap

delete from private.test_alerts;
update private.contact_limits
   set global_limit = (select count(*) + 2 from private.contact_slots where taken_at > now() - interval '1 hour');
select is(
  (select count(*)::int from private.contact_slots where taken_at <= now() - interval '1 hour'), 2,
  'a lower cap keeps the slots taken in the window: two are free'
);
set local role anon;
select is(pg_temp.send('192.0.2.1'), 'ok', 'one below the global cap: accepted');
select is(pg_temp.send('192.0.2.200', '20000000-0000-4000-8000-000000000002'), 'ok', 'the row that reaches the cap is accepted');
reset role;
select results_eq(
  $$ select payload from private.test_alerts where payload like '%contact.limit%' $$,
  $$ values ('{"event":"contact.limit","ref":null}'::text) $$,
  'reaching the cap alerts staff (contact.limit, no ref)'
);
set local role anon;
select is(
  pg_temp.send('100.64.0.1'),
  'PGRST {"code":"contact_global_limit","message":"The contact form is receiving too many submissions right now. Try again later.","details":null,"hint":null} {"status":429,"headers":{"Retry-After":"2940"}}',
  'past the cap every network is refused with 429 and Retry-After (until the oldest slot of the hour, moved 11 minutes back above, frees: 3600 - 660 s)'
);
select matches(pg_temp.send(null), '^PGRST \{"code":"contact_global_limit"', 'a request without the header too');
select is(
  pg_temp.send('192.0.2.200', '20000000-0000-4000-8000-000000000002'),
  '23505 duplicate key value violates unique constraint "contact_submissions_pkey"',
  'a replay past the cap still answers 23505 (409), not 429'
);
reset role;
update private.contact_limits set global_limit = global_limit + 1;
set local role anon;
select is(pg_temp.send('192.0.2.3'), 'ok', 'with the cap raised, one more is accepted and reaches it again');
reset role;
select is((select count(*)::int from private.test_alerts where payload like '%contact.limit%'), 1, 'staff are alerted once an hour, not once per row');

set local role service_role;
select lives_ok(pg_temp.insert_sql(), 'staff tooling (service_role) is not limited');
reset role;
select lives_ok(
  $$ insert into public.contact_submissions (id, sealed, key_id, mailbox_hash)
     select gen_random_uuid(), pg_temp.armor(), pg_temp.key_id(), gen_random_bytes(32) from generate_series(1, 3) $$,
  'nor are the owner''s multi-row inserts'
);

-- The purge trims events older than 24 hours even when no insert comes to do it.
insert into private.contact_rate_events (at, bucket) values (now() - interval '25 hours', repeat('a', 64)), (now() - interval '23 hours', repeat('b', 64));
select private.purge_contact_submissions();
select is(
  (select count(*)::int from private.contact_rate_events where at < now() - interval '1 hour'),
  1,
  'the purge deletes rate events older than 24 hours (and keeps the 23-hour-old one)'
);

-- ---------------------------------------------------------------- anon sees none of it

set local role anon;
select throws_ok('select * from private.contact_limits', '42501', 'permission denied for schema private', 'anon cannot read the limits');
select throws_ok('select * from private.contact_rate_events', '42501', 'permission denied for schema private', 'anon cannot read the rate events');
select throws_ok($$ select private.network_bucket('203.0.113.7') $$, '42501', null, 'anon cannot compute buckets');
reset role;

select * from finish();
rollback;
