-- Sealed submissions (issue 8): the table holds ciphertext only, enforced by the database.
--
-- The browser seals the whole submission (one JSON document, padded to a multiple of 1 KiB) with
-- age to every recipient staff configured, and inserts `{ id, key_id, sealed }` and nothing else.
-- From here on the database refuses anything else from the internet, on its own:
--   * anon's INSERT grant becomes exactly (id, sealed, key_id): a plaintext column from anon is
--     refused by the privilege system (42501, HTTP 401) before any row is built;
--   * `sealed` must be a well-formed age ASCII armor of bounded size (checks, 23514, HTTP 400), so
--     plain text or random base64 dressed as a column value is refused;
--   * `key_id` must name a recipient set staff registered and have not retired (23503, HTTP 409).
-- Rows stored before this migration keep their plaintext columns (now nullable) and stay readable
-- by staff until the purge removes them; a check keeps every row either wholly sealed or wholly
-- legacy, never a mix.
--
-- Runs on a hosted Supabase project, on plain PostgreSQL 15 (pgTAP) and on PGlite (the local
-- backend): it creates no roles, needs no extension (sha256() and decode() are core) and touches
-- no Supabase-managed schema.

-- Staff-only objects live in `private`, a schema PostgREST does not expose and the API roles cannot
-- even look into (no USAGE), so nothing here is reachable with the public anon key.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;
grant usage on schema private to service_role;

-- ---------------------------------------------------------------- recipient sets (keys)

-- The age X25519 recipient encoding: "age1" + 58 bech32 characters (lowercase, as age prints
-- them). Only X25519 recipients are accepted because the size bound below is computed for their
-- 98-byte stanzas; post-quantum hybrid recipients (about 1.6 KB each) need a new bound first.
create function private.are_age_recipients(recipients text[])
  returns boolean
  language sql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
  select cardinality(recipients) between 1 and 10
    and coalesce(bool_and(r is not null and r ~ '^age1[02-9ac-hj-np-z]{58}$'), false)
  from unnest(recipients) as r
$$;

comment on function private.are_age_recipients(text[]) is
  'True for 1 to 10 age X25519 recipients (age1 + 58 lowercase bech32 characters), no nulls.';

-- A recipient set has no order and no repeats; it is stored in the one form its key_id is
-- computed over, so equal sets are equal rows.
create function private.recipient_set(recipients text[])
  returns text[]
  language sql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
  select array(select distinct r collate "C" from unnest(recipients) as r order by 1)
$$;

-- The data contract's key_id: the first 16 lowercase hex characters of SHA-256 over the sorted,
-- de-duplicated recipients joined by "\n". The browser computes the same over its build config, so
-- a row says which recipient set sealed it without anyone decrypting it. Sorted by bytes ("C"),
-- as JavaScript's default sort orders these ASCII strings.
create function private.submission_key_id(recipients text[])
  returns text
  language sql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
  select left(encode(pg_catalog.sha256(convert_to(string_agg(r, E'\n' order by r collate "C"), 'UTF8')), 'hex'), 16)
  from (select distinct r from unnest(recipients) as r) as recipient_set
$$;

comment on function private.submission_key_id(text[]) is
  'key_id of a recipient set: left(sha256_hex(sorted distinct recipients joined by LF), 16). Same rule as the browser.';

create table private.submission_keys (
  key_id text not null,
  -- Stored sorted and de-duplicated, exactly the set the key_id was computed over.
  recipients text[] not null,
  -- Who holds the identities (e.g. 'inbox 2026-Q4 + offline escrow'); never the identities themselves.
  label text,
  status text not null default 'active',
  created_at timestamptz not null default now(),
  retired_at timestamptz,

  constraint submission_keys_pkey primary key (key_id),
  constraint submission_keys_recipients_check check (
    private.are_age_recipients(recipients) and recipients = private.recipient_set(recipients)
  ),
  -- The id is derived, never chosen: a row cannot claim a key_id its recipients do not hash to.
  constraint submission_keys_key_id_check check (key_id = private.submission_key_id(recipients)),
  constraint submission_keys_status_check check (status in ('active', 'retired')),
  constraint submission_keys_retired_at_check check ((status = 'retired') = (retired_at is not null)),
  constraint submission_keys_label_check check (char_length(label) <= 200)
);

-- No policy: only the owner and service_role (BYPASSRLS) see keys; staff get a read policy with
-- their role (issue 9 migration). The API roles have no grant either, so anon gets 42501.
alter table private.submission_keys enable row level security;
revoke all on table private.submission_keys from public, anon, authenticated;
grant all on table private.submission_keys to service_role;

comment on table private.submission_keys is
  'Recipient sets submissions may be sealed to. Register with private.register_submission_key(); retire with private.retire_submission_key(). Anon cannot read it.';

-- Idempotent, so the local backend can call it at every start and a deploy script can re-run it;
-- registering a retired set again re-activates it (rolling back a rotation).
create function private.register_submission_key(recipients text[], label text default null)
  returns text
  language plpgsql
  security definer
  set search_path = ''
as $$
#variable_conflict use_column
declare
  normalized text[];
  new_key_id text;
begin
  normalized := private.recipient_set(register_submission_key.recipients);
  if not coalesce(private.are_age_recipients(normalized), false) then
    raise exception using
      errcode = 'invalid_parameter_value',
      message = 'recipients must be 1 to 10 age X25519 recipients (age1 followed by 58 lowercase bech32 characters)';
  end if;
  new_key_id := private.submission_key_id(normalized);
  insert into private.submission_keys as k (key_id, recipients, label)
  values (new_key_id, normalized, register_submission_key.label)
  on conflict (key_id) do update
    set status = 'active',
        retired_at = null,
        label = coalesce(excluded.label, k.label);
  return new_key_id;
end
$$;

comment on function private.register_submission_key(text[], text) is
  'Registers (or re-activates) a recipient set and returns its key_id. Idempotent.';

-- Retiring refuses new rows sealed to the set; rows already sealed to it stay (the FK keeps them
-- pointing at the set, and the identities stay needed until those rows are purged).
create function private.retire_submission_key(key_id text)
  returns boolean
  language sql
  security definer
  set search_path = ''
as $$
  update private.submission_keys as k
     set status = 'retired', retired_at = now()
   where k.key_id = retire_submission_key.key_id and k.status = 'active'
  returning true
$$;

comment on function private.retire_submission_key(text) is
  'Stops accepting submissions sealed to this recipient set. Returns true if it was active, null otherwise.';

revoke all on function private.register_submission_key(text[], text) from public;
revoke all on function private.retire_submission_key(text) from public;
grant execute on function private.register_submission_key(text[], text) to service_role;
grant execute on function private.retire_submission_key(text) to service_role;

-- ---------------------------------------------------------------- the armor check

-- Size bound, computed for the largest document the form can produce, sealed by age 0.3.1
-- (typage) and measured: every text field at its limit in UTF-16 units (zod counts those) with the
-- costliest characters for JSON, i.e. control characters that JSON.stringify writes as 6-byte
-- "\u0001" escapes: message 5,000 + name 120 + contact 200 + user agent 512 units, 35,199 bytes
-- with the other fields, padded to 35,840 (35 KiB); sealed to 10 X25519 recipients (the most
-- private.are_age_recipients admits) that is 36,922 bytes, 50,070 armored characters
-- (2 recipients: 49,005). The everyday heavy case, a 5,000-character brief of 4-byte characters
-- with every other field full of them (23,552 bytes padded), armors to 32,365 characters for two
-- recipients. The bound is therefore 51,200 characters (50 KiB): nothing the form sends is
-- refused, and a row costs at most that much.
--
-- The armor (age-encryption.org/v1, "ASCII armor"): the BEGIN line, canonical base64 in lines of
-- 64 columns (the last 1 to 64), the END line, an optional final newline. The decoded binary must
-- start with the age header line, then a recipient stanza ("-> "), and carry the header's MAC line
-- ("\n--- "). Random base64, or a PEM block of something else, fails one of these.
create function private.is_age_armor(armor text)
  returns boolean
  language plpgsql
  immutable
  strict
  parallel safe
  set search_path = ''
as $$
declare
  body text;
  decoded bytea;
begin
  -- Cheap first: never run the regular expressions over something the size check refuses anyway.
  if octet_length(armor) > 51200 then
    return false;
  end if;
  if armor !~ '^-----BEGIN AGE ENCRYPTED FILE-----\n(?:[A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END AGE ENCRYPTED FILE-----\n?$' then
    return false;
  end if;
  body := replace(
    substring(armor from '^-----BEGIN AGE ENCRYPTED FILE-----\n(.*)\n-----END AGE ENCRYPTED FILE-----\n?$'),
    E'\n', ''
  );
  -- Canonical base64: whole quads, "=" only as the final padding.
  if body !~ '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' then
    return false;
  end if;
  decoded := decode(body, 'base64');
  return substring(decoded from 1 for 22) = '\x6167652d656e6372797074696f6e2e6f72672f76310a'::bytea -- 'age-encryption.org/v1\n'
    and substring(decoded from 23 for 3) = '\x2d3e20'::bytea                                        -- '-> '
    and position('\x0a2d2d2d20'::bytea in decoded) > 0;                                              -- '\n--- '
end
$$;

comment on function private.is_age_armor(text) is
  'True for a well-formed age ASCII armor (age-encryption.org/v1) of at most 51,200 characters.';

-- ---------------------------------------------------------------- the table

alter table public.contact_submissions
  add column sealed text,
  add column key_id text,
  -- Legacy plaintext columns: kept for rows stored before sealing, empty in every new row.
  alter column name drop not null,
  alter column contact drop not null,
  alter column message drop not null,
  alter column user_agent drop not null,
  alter column user_agent drop default;

alter table public.contact_submissions
  -- Checks run in name order: the size check ("bounds") before the costlier format check.
  add constraint contact_submissions_sealed_bounds_check check (octet_length(sealed) <= 51200),
  add constraint contact_submissions_sealed_format_check check (private.is_age_armor(sealed)),
  -- Every row is wholly sealed (ciphertext and key_id, no plaintext column at all) or wholly
  -- legacy (the plaintext the old form required, no ciphertext). The legacy columns' own checks
  -- from the first migration still hold for legacy rows (null passes a check).
  add constraint contact_submissions_sealed_or_legacy_check check (
    (
      sealed is not null and key_id is not null
      and name is null and contact is null and project_type is null and budget is null
      and message is null and user_agent is null
    ) or (
      sealed is null and key_id is null
      and name is not null and contact is not null and message is not null
    )
  ),
  -- Existence of the set; RESTRICT keeps a key that rows still need from being deleted.
  add constraint contact_submissions_key_id_fkey foreign key (key_id)
    references private.submission_keys (key_id) on update restrict on delete restrict;

create index contact_submissions_key_id_idx on public.contact_submissions (key_id);

-- The FK proves the set exists; this proves it is still active. It runs as the owner (anon cannot
-- read the keys) and answers like the FK would (23503, HTTP 409), so "unknown" and "retired" look
-- the same from outside: the browser can only resend or discard, and learns nothing about keys.
-- A row whose id is already stored is let through to the primary key, so a replay of a row sealed
-- to a since-retired set still answers 23505 (409, "already received"), not a refusal.
create function private.contact_submissions_require_active_key()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if new.key_id is null then
    return new;
  end if;
  if exists (select from public.contact_submissions where id = new.id) then
    return new;
  end if;
  if not exists (
    select from private.submission_keys where key_id = new.key_id and status = 'active'
  ) then
    -- The message names no value: nothing a visitor sent ends up in an error log.
    raise exception using
      errcode = 'foreign_key_violation',
      message = 'key_id does not name an active submission key',
      hint = 'Seal to the recipients the site is currently built with.';
  end if;
  return new;
end
$$;

revoke all on function private.contact_submissions_require_active_key() from public;

create trigger contact_submissions_require_active_key
  before insert on public.contact_submissions
  for each row execute function private.contact_submissions_require_active_key();

-- ---------------------------------------------------------------- anon's grant

-- Revoking the table-level privilege also revokes every column privilege, including the old
-- plaintext column grant; then anon gets exactly the three columns of the sealed row.
revoke all on table public.contact_submissions from anon;
grant insert (id, sealed, key_id) on table public.contact_submissions to anon;

comment on table public.contact_submissions is
  'Secure Contact form submissions, sealed in the visitor''s browser with age (anon: insert id, sealed, key_id only; no read). Rows from before sealing keep their plaintext columns until purged. Read and handled by staff.';
comment on column public.contact_submissions.sealed is
  'The whole submission (JSON, padded to a multiple of 1 KiB) encrypted with age to the recipient set key_id, ASCII armored. Decrypt with `age -d -i identity.txt`.';
comment on column public.contact_submissions.key_id is
  'The recipient set that sealed this row (private.submission_keys): tells staff which identity decrypts it.';
comment on column public.contact_submissions.name is
  'Legacy rows only (before sealing): name or preferred alias, as typed. Null in sealed rows.';
comment on column public.contact_submissions.contact is
  'Legacy rows only (before sealing): primary contact, as typed. Null in sealed rows.';
comment on column public.contact_submissions.project_type is
  'Legacy rows only (before sealing): project type chosen in the form. Null in sealed rows.';
comment on column public.contact_submissions.budget is
  'Legacy rows only (before sealing): budget range chosen in the form. Null in sealed rows.';
comment on column public.contact_submissions.message is
  'Legacy rows only (before sealing): project brief. Null in sealed rows.';
comment on column public.contact_submissions.user_agent is
  'Legacy rows only (before sealing): browser identification string. Null in sealed rows (it is inside the sealed document).';
