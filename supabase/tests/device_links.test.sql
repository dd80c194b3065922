-- Adding a device from every side: anon, a user not on the staff list, staff at aal1,
-- the new device's account and a colleague at aal2; a key set sealed once, taken once and only by
-- the account that opened the link; the 10-minute expiry, enforced by the policies and purged.
-- Requests are simulated as PostgREST makes them (`set local role`, the token's claims in
-- request.jwt.claims), each call in its own subtransaction, so a refusal rolls back what it did.
begin;

select plan(27);

\ir fixtures/sealed-row.psql

\ir fixtures/staff-request.psql

-- Cy is staff too.
insert into auth.users (id, aud, role, email, is_anonymous) values
  ('c0000000-0000-4000-8000-00000000000c', 'authenticated', 'authenticated', 'cy@example.com', false);
insert into private.staff_members (user_id) values ('c0000000-0000-4000-8000-00000000000c');

-- One call as `who` ('anon', 'ada', 'ada-aal1', 'bob', 'cy'): its result as text, or the SQLSTATE.
create function pg_temp.call(who text, sql text) returns text language plpgsql as $$
declare
  result text;
begin
  case who
    when 'anon' then perform pg_temp.request_as('anon');
    when 'ada' then perform pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal2');
    when 'ada-aal1' then perform pg_temp.request_as('authenticated', 'a0000000-0000-4000-8000-00000000000a', 'aal1');
    when 'bob' then perform pg_temp.request_as('authenticated', 'b0000000-0000-4000-8000-00000000000b', 'aal2');
    when 'cy' then perform pg_temp.request_as('authenticated', 'c0000000-0000-4000-8000-00000000000c', 'aal2');
  end case;
  begin
    execute sql into result;
  exception when others then
    result := sqlstate;
  end;
  reset role;
  return coalesce(result, 'null');
end
$$;

create function pg_temp.recipient(n integer) returns text language sql immutable as $$
  select (array['age1x4h7n3d82jdn6dl5se62ptgys8pdfpgz0r7692pn29el4ka2upwqj7je5h',
                'age15s9nnz9eyk7h8wce96p7j4mptzzgd5mpslnt523q8uvlyjd5agaq3mv39g'])[n]
$$;
create function pg_temp.open(who text, n integer, words text) returns text language sql as $$
  select pg_temp.call(who, format('select public.device_link_open(%L, %L)', pg_temp.recipient(n), words))
$$;
create function pg_temp.links() returns bigint language sql as $$
  select count(*) from public.device_links
$$;

-- ---------------------------------------------------------------- structure

select has_table('public', 'device_links', 'the links'' table exists');
select ok(
  (select relrowsecurity from pg_class where oid = 'public.device_links'::regclass),
  'row level security is on'
);
select table_privs_are('public', 'device_links', 'anon', array[]::text[], 'anon has no right on it');
select is(
  (select bool_or(prosecdef) from pg_proc where pronamespace = 'public'::regnamespace and proname like 'device_link_%'),
  false, 'the five functions in the API''s schema run with the caller''s rights'
);
select is(
  (select count(*)::integer from pg_proc where pronamespace = 'public'::regnamespace and proname like 'device_link_%'
      and has_function_privilege('anon', oid, 'EXECUTE')),
  0, 'anon may call none of them'
);

-- ---------------------------------------------------------------- who may open

select is(pg_temp.open('anon', 1, 'abandon-ability-able-about-above'), '42501', 'anon cannot open a link');
select is(pg_temp.open('ada-aal1', 1, 'abandon-ability-able-about-above'), '42501', 'staff at aal1 cannot');
select is(pg_temp.open('bob', 1, 'abandon-ability-able-about-above'), '42501', 'a user not on the staff list cannot');
select is(pg_temp.open('ada', 1, 'not a code'), '23514', 'a fingerprint that is not five words is refused');
select is(
  pg_temp.call('ada', $$ select public.device_link_open('age1short', 'abandon-ability-able-about-above') $$),
  '23514', 'a recipient that is not an age X25519 recipient is refused'
);
select ok(
  pg_temp.open('ada', 1, 'abandon-ability-able-about-above') ~ '^[0-9a-f-]{36}$',
  'staff at aal2 open a link and learn its id'
);
select is(pg_temp.open('cy', 2, 'abandon-ability-able-about-above'), '23505', 'a fingerprint in use answers 23505');
select is(
  (select expires_at - created_at from public.device_links), interval '10 minutes',
  'the database stamps a 10-minute life'
);

-- ---------------------------------------------------------------- who may seal

select is(
  pg_temp.call('ada-aal1', $$ select public.device_link_recipient('abandon-ability-able-about-above') $$),
  'null', 'staff at aal1 read no recipient'
);
select is(
  pg_temp.call('bob', $$ select public.device_link_recipient('abandon-ability-able-about-above') $$),
  'null', 'nor does a user not on the staff list'
);
select is(
  pg_temp.call('cy', $$ select public.device_link_recipient('abandon-ability-able-about-above') $$),
  pg_temp.recipient(1), 'a colleague at aal2 reads the one-time recipient the code names'
);
select is(
  pg_temp.call('cy', format($$ select public.device_link_seal('abandon-ability-able-about-above', %L, %L) $$,
    pg_temp.recipient(2), pg_temp.armor())),
  'false', 'sealing to another recipient than the row''s stores nothing'
);
select is(
  pg_temp.call('cy', format($$ select public.device_link_seal('abandon-ability-able-about-above', %L, 'hello') $$,
    pg_temp.recipient(1))),
  '23514', 'what is sealed must be an age armor'
);
select is(
  pg_temp.call('cy', format($$ select public.device_link_seal('abandon-ability-able-about-above', %L, %L) $$,
    pg_temp.recipient(1), pg_temp.armor())),
  'true', 'the colleague seals the key set to it'
);
select is(
  pg_temp.call('cy', format($$ select public.device_link_seal('abandon-ability-able-about-above', %L, %L) $$,
    pg_temp.recipient(1), pg_temp.armor() || ' ')),
  'false', 'a link takes one key set: a second seal stores nothing'
);

-- ---------------------------------------------------------------- who may take

select is(
  pg_temp.call('cy', format('select public.device_link_take(%L)', (select id from public.device_links))),
  '{"state": "gone"}', 'another account cannot take it'
);
select is(
  pg_temp.call('ada', format('select public.device_link_take(%L)', (select id from public.device_links)))::jsonb,
  jsonb_build_object('state', 'sealed', 'sealed', pg_temp.armor()),
  'the account that opened the link takes the sealed key set'
);
select is(pg_temp.links(), 0::bigint, 'and the row is gone: taken once');

-- ---------------------------------------------------------------- expiry

select ok(pg_temp.open('ada', 2, 'zoo-zoo-zoo-zoo-zoo') ~ '^[0-9a-f-]{36}$', 'a second link opens');
select is(
  pg_temp.call('ada', format('select public.device_link_take(%L)', (select id from public.device_links))),
  '{"state": "waiting"}', 'before the seal, the new device is told to wait'
);
-- Eleven minutes later.
update public.device_links set created_at = now() - interval '11 minutes', expires_at = now() - interval '1 minute';
select is(
  pg_temp.call('cy', $$ select public.device_link_recipient('zoo-zoo-zoo-zoo-zoo') $$),
  'null', 'an expired link shows no recipient'
);
select is(pg_temp.links(), 0::bigint, 'and is purged');

select * from finish();
rollback;
