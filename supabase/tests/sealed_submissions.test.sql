-- Sealed submissions: the table takes ciphertext only, and the database says so on its own. Proved the way requests reach it: as anon (`set local role anon`, as PostgREST does), with
-- a real age armor made by the browser's library (age-encryption 0.3.1) and synthetic ones built
-- here byte by byte for the format and size edges.
begin;

select plan(49);

-- A real sealed document: 1 KiB of padded JSON sealed by typage to the two recipients below (their
-- identities were thrown away; nobody can read it, which is fine for a fixture).
create function pg_temp.real_armor() returns text language sql immutable as $$
  select E'-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSBueUhDOWJiMEZyS3RHTytS\nOWovWGxBTlUvOGEzQk5TRkdJYkl1MjlzVFRnCjlvblVBRGxqWXNMRUdGS3hvcm5X\nbGFuUGpObndhQnB6S2pHNThNbnZ1bk0KLT4gWDI1NTE5IFd6ajJwL0ZEZ2ZFT3hY\nUDNEZlN6MWYwZFVXMlg1NklTSGYwLzFGSElxRUUKOTFTQ0tQTmlrbDBKTEN4Qks5\nK1pyVGN6VmJBZ0FhcXVzSkZTQVJNZFpjOAotLS0gcjN2SHZaQXFrQy9mWUMvMzFs\ndFdUN3puU0JNdEF3RHBSaVo1UkZac3FoVQoS77uPeWl1GWq1kLseMLPZVMU426mk\nPlnIFMDzBsCTbPnA9Z/wgyLtx1dKAKWh6nDUC9OH7Z/SC4us283zCVCIfU5Okpul\nH3BINkPH2CB4RheJj5vCsZojZ84b99X/yQ0Lsgab7NkjPuJSLK9TH3iLMKZrvuAl\n9/YZky6LSgZFaTu3MfMUBvsGibc2TJy6IeazGm1GZrlpgMBMAkavj+HgEmq1AUm2\n5ojsSlZ3eW5w/hWS5j3A2FUqIbabNdsjzOpyVT2tQyt3QOuv0Dbhi1Z1YOgl5VVd\n1r2M5KaBF5RVH9I1sFU2vp17isTenDGzSNUvHuE4zuOcc9cGFgYsTcQHSGF5AGQ+\nwMpcvGwCPjrVjh0pe8xXM+EO0qbnKR0gp21TXCfGHG0gEvSum0D1DW5AgkNsy2/0\nsYN8QVHfqeUq4jrxhfrR+s5nqrUUN2Y8/mzaBXQzivdLWayqMB7AGf4VYBNNqAGn\ncabHErvEnEuDmmc65+c8KTZpMBBWHidaChDNEe85MAonaqpJ4OgpExxV8/6x8ZJy\nZ4fzN2LXhlXPFZebv9uOup5UH8gUEQd/wO4ahQNCNnRxkooAT/3yq7VoowPBtjLz\nyuOxhTxReVH8QGe/KhvQ8uW0yMmuPiMKPpM6QtSOxrCEcSvFs0AX0MGDMjK/jIPE\n5EJhlpvEag3SItBaIhru2wyMBhsloNGDqEw+8Cjfy2Zrs73J5WeU+FGUOm5tsGwH\nUa+bTdvTWJfUa7YNao2dwAlq6XJ7sCEG/fqSabg3kbUjsUm+Wa2tVKAM8aC93ZtY\nKtifRI+1zYMFBOnLkhezWGZnd40snDxAHTEcX8MNvY+3PdhWdJ/rYAt+rbXRor43\nqBfCe70V5/P9jOFnnFNNqJHsUhaBj/lYdrWFs2BpsQTHcxbuRJXLfHkS4FBDfAW2\ndZBuSsL/c3TGyz6FUaAwCuYdwlZHKPZ7Fu+ISGP/EJ+xl5PHx7PCHdhL92nuA+j8\n9yGG5lQhYhVpD1S/Vdxfxq3ejKAC6gagsD3+yPELp4WpM/KcsZxSt+a3O76gyaHQ\nKGa7XHVVkqx5thC2BxyBHTmArkmO/90JS1A0n1w0FtxN3sBtcSG3D/qCz9LUVRdK\ney5hUi4i7zYZ0CRI3Sh1VmJ5DRntW3oCIIqwFvhHZ70nk+EkY4/IdcuOR1BUljRg\nPj8ybamkWMuFj8Giuk2okUKkvMsLpDmADKRHErnvquRg7JYUdIENqtnQXmAhK5V+\nipnYUJCRXr8gL1JsXbJ0umMZHwwVWK+T310JKEL0Mz72h+/lljfhoherEOaICw+p\nuCgZeU+i3YVNRUtZdCFYldgW4tno5eh8do857X3uw3fDDCCvor0gL17nhVrrhN5R\nbgomw+rNepXYZVyp5kVb6AyriodgXwVvBpY=\n-----END AGE ENCRYPTED FILE-----\n'
$$;
create function pg_temp.recipients() returns text[] language sql immutable as $$
  select array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc', 'age1ua3tzqr76jaw0jmsweddhk2tytvzpxlnw5epxmvksec5hzfxr3zqu5f3xj']
$$;

-- The armor of any bytes: BEGIN line, base64 in lines of 64, END line, final newline.
create function pg_temp.armor(file bytea) returns text language sql immutable as $$
  select E'-----BEGIN AGE ENCRYPTED FILE-----\n'
    || rtrim(regexp_replace(replace(encode(file, 'base64'), E'\n', ''), '(.{64})', E'\\1\n', 'g'), E'\n')
    || E'\n-----END AGE ENCRYPTED FILE-----\n'
$$;
-- An age file's shape (header line, a stanza, the MAC line) followed by `payload` filler bytes.
create function pg_temp.age_file(payload integer) returns bytea language sql immutable as $$
  select convert_to(E'age-encryption.org/v1\n-> X25519 pgtap\nstanza\n--- mac\n', 'UTF8')
    || substring(decode(string_agg(md5(i::text), ''), 'hex') from 1 for payload)
  from generate_series(0, payload / 16) as i
$$;
create function pg_temp.insert_sql(id uuid default gen_random_uuid(), sealed text default pg_temp.real_armor(), key_id text default '97f7eb258a88e58f')
returns text language sql as $$
  select format('insert into public.contact_submissions (id, sealed, key_id, mailbox_hash) values (%L, %L, %L, %L)',
                id, sealed, key_id, sha256(convert_to(gen_random_uuid()::text, 'UTF8')))
$$;

-- ---------------------------------------------------------------- structure and keys (as the owner)

select has_column('public', 'contact_submissions', 'sealed', 'the table has a sealed column');
select has_column('public', 'contact_submissions', 'key_id', 'the table has a key_id column');
select fk_ok('public', 'contact_submissions', 'key_id', 'private', 'submission_keys', 'key_id', 'key_id references the registered recipient sets');
select results_eq(
  $$ select column_name::text collate "default", privilege_type::text collate "default"
     from information_schema.column_privileges
     where table_schema = 'public' and table_name = 'contact_submissions' and grantee = 'anon'
     order by column_name $$,
  $$ values ('id', 'INSERT'), ('key_id', 'INSERT'), ('mailbox_hash', 'INSERT'), ('sealed', 'INSERT') $$,
  'anon may insert exactly the sealed row: id, sealed, key_id and mailbox_hash'
);
select table_privs_are('public', 'contact_submissions', 'anon', array[]::text[], 'anon has no table-wide privilege');
select table_privs_are('private', 'submission_keys', 'anon', array[]::text[], 'anon has no privilege on the keys table');
select ok(not has_schema_privilege('anon', 'private', 'USAGE'), 'anon cannot use the private schema');
select ok(not has_schema_privilege('authenticated', 'private', 'USAGE'), 'authenticated cannot use the private schema');

select is(
  private.submission_key_id(array['age1ua3tzqr76jaw0jmsweddhk2tytvzpxlnw5epxmvksec5hzfxr3zqu5f3xj', 'age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc', 'age1ua3tzqr76jaw0jmsweddhk2tytvzpxlnw5epxmvksec5hzfxr3zqu5f3xj']),
  '97f7eb258a88e58f',
  'key_id is the data contract''s id (sorted, de-duplicated, LF-joined, SHA-256, 16 hex), as the browser computes it'
);
select is(private.register_submission_key(pg_temp.recipients(), 'pgTAP set'), '97f7eb258a88e58f', 'register_submission_key returns the key_id');
select is(
  private.register_submission_key(array['age1ua3tzqr76jaw0jmsweddhk2tytvzpxlnw5epxmvksec5hzfxr3zqu5f3xj', 'age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc']),
  '97f7eb258a88e58f',
  'registering the same set again (any order) returns the same key_id'
);
select results_eq(
  $$ select recipients, label, status from private.submission_keys $$,
  $$ values (array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc', 'age1ua3tzqr76jaw0jmsweddhk2tytvzpxlnw5epxmvksec5hzfxr3zqu5f3xj'], 'pgTAP set', 'active') $$,
  'registering is idempotent: one row, recipients sorted, the label kept'
);
select throws_ok(
  $$ select private.register_submission_key(array['age1notarecipient']) $$,
  '22023', null,
  'a malformed recipient is refused with 22023'
);
select throws_ok(
  $$ select private.register_submission_key(array[]::text[]) $$,
  '22023', null,
  'an empty recipient set is refused'
);
select throws_ok(
  $$ insert into private.submission_keys (key_id, recipients) values ('0000000000000000', array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc']) $$,
  '23514', null,
  'a key_id that is not the hash of its recipients is refused'
);
select is(private.register_submission_key(array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc']), private.submission_key_id(array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc']), 'a second set (rotation: one recipient) can be registered');
select ok(private.retire_submission_key(private.submission_key_id(array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc'])), 'retire_submission_key retires it');

select ok(private.is_age_armor(pg_temp.real_armor()), 'an armor made by age-encryption is an age armor');
select ok(private.is_age_armor(pg_temp.armor(pg_temp.age_file(100))), 'so is a synthetic one with the age header');
select ok(not private.is_age_armor(pg_temp.armor(decode(repeat(md5('x'), 40), 'hex'))), 'armored random bytes are not');
select ok(not private.is_age_armor(replace(pg_temp.real_armor(), 'AGE ENCRYPTED FILE', 'PGP MESSAGE')), 'a PGP armor is not');
select ok(not private.is_age_armor(replace(pg_temp.real_armor(), E'\n', E'\r\n')), 'CRLF line ends are not (the browser writes LF)');
select ok(not private.is_age_armor(regexp_replace(pg_temp.real_armor(), E'\n-----END AGE ENCRYPTED FILE-----\n$', '')), 'an armor without its END line is not');
select ok(not private.is_age_armor(regexp_replace(pg_temp.real_armor(), '^(.{100})[A-Za-z0-9+/]', E'\\1=')), 'base64 with "=" inside is not');

-- ---------------------------------------------------------------- anon, as PostgREST runs it

set local role anon;
select set_config('request.jwt.claims', '{"iss":"supabase-demo","role":"anon","exp":1983812996}', true);

select lives_ok(pg_temp.insert_sql(id => '33333333-3333-4333-8333-333333333333'), 'anon can insert a sealed row (id, sealed, key_id, mailbox_hash)');
select throws_ok(
  pg_temp.insert_sql(id => '33333333-3333-4333-8333-333333333333'),
  '23505', 'duplicate key value violates unique constraint "contact_submissions_pkey"',
  'the same id again is a duplicate (409: already received)'
);
select throws_ok(
  $$ insert into public.contact_submissions (id, name, contact, message) values (gen_random_uuid(), 'Ada', 'ada@example.com', 'Hello') $$,
  '42703', null,
  'plaintext has nowhere to go: the table has no plaintext column'
);
select throws_ok(
  $$ insert into public.contact_submissions (id, sealed, key_id, created_at) values (gen_random_uuid(), 'x', '97f7eb258a88e58f', now() - interval '1 year') $$,
  '42501', 'permission denied for table contact_submissions',
  'anon cannot choose created_at either'
);
select throws_ok(
  pg_temp.insert_sql(sealed => 'Ada Lovelace, ada@example.com: we launch a token next month.'),
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_format_check"',
  'plain text in sealed is refused (23514)'
);
select throws_ok(
  pg_temp.insert_sql(sealed => encode(decode(repeat(md5('random'), 64), 'hex'), 'base64')),
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_format_check"',
  'random base64 in sealed is refused'
);
select throws_ok(
  pg_temp.insert_sql(sealed => pg_temp.armor(decode(repeat(md5('random'), 64), 'hex'))),
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_format_check"',
  'random bytes in a well-formed age armor are refused (no age header)'
);
select throws_ok(
  pg_temp.insert_sql(sealed => replace(pg_temp.real_armor(), 'AGE ENCRYPTED FILE', 'PGP MESSAGE')),
  '23514', null,
  'another armor type is refused'
);
select is(octet_length(pg_temp.armor(pg_temp.age_file(37705))), 51199, 'fixture: the largest synthetic armor under the bound is 51,199 characters');
select lives_ok(pg_temp.insert_sql(sealed => pg_temp.armor(pg_temp.age_file(37705))), 'a 51,199-character age armor is accepted');
select is(octet_length(pg_temp.armor(pg_temp.age_file(37706))), 51203, 'fixture: the next one is 51,203 characters');
select throws_ok(
  pg_temp.insert_sql(sealed => pg_temp.armor(pg_temp.age_file(37706))),
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_bounds_check"',
  'an age armor over 51,200 characters is refused by the size check'
);
select throws_ok(
  pg_temp.insert_sql(sealed => repeat('A', 1000000)),
  '23514', 'new row for relation "contact_submissions" violates check constraint "contact_submissions_sealed_bounds_check"',
  'a megabyte of anything is refused by the size check first'
);
select throws_ok(
  pg_temp.insert_sql(key_id => null),
  '23502', null,
  'a sealed row without key_id is refused'
);
select throws_ok(
  $$ insert into public.contact_submissions (id) values (gen_random_uuid()) $$,
  '23502', null,
  'an empty row is refused'
);
select throws_ok(
  pg_temp.insert_sql(key_id => 'ffffffffffffffff'),
  '23503', 'key_id does not name an active submission key',
  'an unknown key_id is refused (23503, 409)'
);
select throws_ok(
  pg_temp.insert_sql(key_id => 'a49fab8f38573ef6'), -- the one-recipient set retired above
  '23503', 'key_id does not name an active submission key',
  'a retired key_id is refused the same way'
);
select throws_ok(
  'select * from private.submission_keys',
  '42501', 'permission denied for schema private',
  'anon cannot read the keys'
);
select throws_ok(
  $$ select private.register_submission_key(array['age1mzqvulrj58ufnqy9p7h72qlylp7kxw9qyrjnr0694hlrswq6n46sp7glpc']) $$,
  '42501', null,
  'anon cannot register a key'
);
select throws_ok(
  'select id from public.contact_submissions',
  '42501', 'permission denied for table contact_submissions',
  'anon still reads nothing'
);
reset role;

-- A replay of a row whose recipient set was retired after it was stored still answers 23505.
select ok(private.retire_submission_key('97f7eb258a88e58f'), 'the fixture''s set is retired');
set local role anon;
select throws_ok(
  pg_temp.insert_sql(id => '33333333-3333-4333-8333-333333333333'),
  '23505', 'duplicate key value violates unique constraint "contact_submissions_pkey"',
  'a replayed id sealed to a since-retired set is still "already received" (23505), not a key refusal'
);
reset role;
select is(private.register_submission_key(pg_temp.recipients()), '97f7eb258a88e58f', 're-registering a retired set re-activates it');

-- ---------------------------------------------------------------- staff (service_role)

set local role service_role;
select results_eq(
  $$ select sealed, key_id from public.contact_submissions where id = '33333333-3333-4333-8333-333333333333' $$,
  $$ values (pg_temp.real_armor(), '97f7eb258a88e58f'::text) $$,
  'staff read the sealed row: ciphertext and key_id'
);
select throws_ok(
  $$ delete from private.submission_keys where key_id = '97f7eb258a88e58f' $$,
  '23503', null,
  'a set that rows were sealed to cannot be deleted'
);
reset role;

select * from finish();
rollback;
