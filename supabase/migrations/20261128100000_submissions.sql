-- The Secure Contact form's inquiries: sealed in the visitor's browser, stored as ciphertext only.
--
-- The browser seals the whole submission (one JSON document, padded to a multiple of 1 KiB) with
-- age to every recipient staff configured, and inserts `{ id, key_id, sealed, mailbox_hash }` with
-- the public anon key (supabase-js `.insert(row)`, no `.select()`), so the database is the only
-- gate between the internet and this table. It holds on its own:
--   * grants are explicit and column-level. Supabase projects created before 2026-05-30 grant
--     everything on new public tables to anon/authenticated by default, newer ones grant nothing;
--     revoking first and granting exactly what is needed behaves the same under both. Any other
--     column from anon is refused by the privilege system (42501, HTTP 401) before a row is built;
--   * `sealed` must be a well-formed age ASCII armor of bounded size (checks, 23514, HTTP 400), so
--     plain text or random base64 dressed as a column value is refused;
--   * `key_id` must name a recipient set staff registered and have not retired (23503, HTTP 409);
--   * row level security is on, with an INSERT policy for anon and no SELECT policy for it, so a
--     visitor can add a row but never read, change or delete one (not even their own).
-- The staff side (status, purge, alerts, sign-in), the abuse limits, the conversation and the
-- files come in the migrations after this one.
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

-- No policy: only the owner and service_role (BYPASSRLS) see keys. The API roles have no grant
-- either, so anon gets 42501.
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
-- private.are_age_recipients admits) that is 36,922 bytes, 50,070 armored characters, and the
-- visitor's own recipient adds one stanza (about 130 characters). The everyday heavy case, a
-- 5,000-character brief of 4-byte characters with every other field full of them (23,552 bytes
-- padded), armors to 32,365 characters for two recipients. The bound is therefore 51,200
-- characters (50 KiB): nothing the form sends is refused, and a row costs at most that much
-- (supabase/migrations.test.ts seals the largest document and holds it under the bound).
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

create table public.contact_submissions (
  -- Made in the browser (crypto.randomUUID) so a retried insert from the offline outbox can never
  -- create a second row: the duplicate fails with 23505 (HTTP 409), which the client treats as
  -- "already received".
  id uuid not null default gen_random_uuid(),
  -- When the row reached the database (not when the visitor pressed Send, if it was queued).
  created_at timestamptz not null default now(),
  -- The recipient set that sealed the row: tells staff which identity decrypts it.
  key_id text not null,
  -- The whole submission encrypted with age to the set key_id, ASCII armored.
  sealed text not null,
  -- SHA-256 of the visitor's 32-byte mailbox token, derived in the browser from their receipt: how
  -- the visitor's thread functions find the inquiry. The database never sees the token itself.
  mailbox_hash bytea not null,
  -- The staff workflow (the staff migration stamps the times by trigger): new → responded/engaged
  -- → completed/declined.
  status text not null default 'new',
  -- When staff first moved the row out of `new` (any answer, a refusal included). Never changes after.
  responded_at timestamptz,
  -- When the row was last closed (completed or declined); the purge counts 24 hours from it.
  -- Cleared if a closed row is reopened, so a returning client's row is not purged under them.
  completed_at timestamptz,
  -- When the overdue alert went out, so each row alerts once.
  overdue_alerted_at timestamptz,
  -- The staff account's email that last answered (a sealed reply, or a move to responded or
  -- engaged from the inbox). Stamped by the database from the token, never sent by a client.
  responded_by text,
  -- Set when a visitor's message arrives and nobody has answered it yet; cleared by a staff reply
  -- or a status change. The inbox lists these first, as unanswered.
  awaiting_reply_since timestamptz,

  constraint contact_submissions_pkey primary key (id),
  -- Checks run in name order: the size check ("bounds") before the costlier format check.
  constraint contact_submissions_sealed_bounds_check check (octet_length(sealed) <= 51200),
  constraint contact_submissions_sealed_format_check check (private.is_age_armor(sealed)),
  -- Existence of the set; RESTRICT keeps a key that rows still need from being deleted.
  constraint contact_submissions_key_id_fkey foreign key (key_id)
    references private.submission_keys (key_id) on update restrict on delete restrict,
  constraint contact_submissions_mailbox_hash_check check (octet_length(mailbox_hash) = 32),
  -- One inquiry per mailbox. A replayed row still answers contact_submissions_pkey (23505, 409):
  -- the primary key's index is checked before this one.
  constraint contact_submissions_mailbox_hash_key unique (mailbox_hash),
  constraint contact_submissions_status_check check (
    status in ('new', 'responded', 'engaged', 'completed', 'declined')
  ),
  -- What the status trigger maintains, stated so that no write path (service_role included) can
  -- leave a row whose times contradict its status.
  constraint contact_submissions_status_times_check check (
    -- New is unanswered; responded and engaged are answered; a closed one may be either.
    (status <> 'new' or responded_at is null)
    and (status not in ('responded', 'engaged') or responded_at is not null)
    and (status in ('completed', 'declined')) = (completed_at is not null)
  ),
  constraint contact_submissions_responded_by_check check (char_length(responded_by) <= 320)
);

-- Staff read submissions newest first; the purge and the overdue watch scan by status and age.
create index contact_submissions_created_at_idx on public.contact_submissions (created_at desc);
create index contact_submissions_status_created_at_idx on public.contact_submissions (status, created_at);
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
  -- No key at all is the not-null constraint's to answer (23502, 400), and a stored id the
  -- primary key's.
  if new.key_id is null or exists (select from public.contact_submissions where id = new.id) then
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

-- ---------------------------------------------------------------- grants and the anon policy

alter table public.contact_submissions enable row level security;

-- Postgres has no negative grants: a column-level grant only narrows anything if no table-level
-- grant remains, so everything is revoked first (including what default privileges gave).
revoke all on table public.contact_submissions from public, anon, authenticated;

-- Anon may insert exactly the sealed row; created_at always comes from the default. No SELECT:
-- the insert works because supabase-js sends no `return=representation` (PostgREST's `RETURNING
-- 1` reads no column), and an upsert, which would need SELECT, is refused on purpose. mailbox_hash
-- travels over REST as `\x` and 64 hex characters.
grant insert (id, sealed, key_id, mailbox_hash) on table public.contact_submissions to anon;

-- Staff tooling and the dashboard use service_role (BYPASSRLS); it needs no policy.
grant all on table public.contact_submissions to service_role;

-- The grant above lets anon reach the table; this policy states what a visitor's row is: a new
-- inquiry nobody has handled, stamped with its arrival. Today the column grant already makes every
-- anon row so; the policy is a second, independent line: if a later grant lets anon name another
-- column, a visitor still cannot file a row as answered or closed (the purge deletes closed rows a
-- day after closing), backdate it (a backdated row is purged or alerted as overdue at once), mark
-- it alerted (the overdue alert would never come) or say who answered.
--
-- What makes a sealed row valid stays with the constraints and the triggers: a well-formed armor
-- (400, contact_submissions_sealed_*), a key_id that is registered and active (409), one row per
-- request and the abuse limits (400/429). PostgreSQL checks the policy before the check
-- constraints, and a policy refusal is a nameless 42501, so repeating those rules here would
-- replace the named answers the form and the outbox act on.
create policy contact_submissions_anon_insert
  on public.contact_submissions
  as permissive
  for insert
  to anon
  with check (
    status = 'new'
    and responded_at is null
    and completed_at is null
    and overdue_alerted_at is null
    and responded_by is null
    and awaiting_reply_since is null
    -- The column default and this check read the same transaction timestamp.
    and created_at = now()
  );

comment on table public.contact_submissions is
  'Secure Contact inquiries, sealed in the visitor''s browser with age (anon: insert id, sealed, key_id, mailbox_hash only; no read). Read and handled by staff.';
comment on column public.contact_submissions.id is
  'Generated in the visitor''s browser; a repeated insert with the same id is refused (409), which makes offline retries safe.';
comment on column public.contact_submissions.created_at is
  'When the row reached the database (not when the visitor pressed Send, if the form was queued offline).';
comment on column public.contact_submissions.sealed is
  'The whole submission (JSON, padded to a multiple of 1 KiB) encrypted with age to the recipient set key_id, ASCII armored. Decrypt with `age -d -i identity.txt`.';
comment on column public.contact_submissions.key_id is
  'The recipient set that sealed this row (private.submission_keys): tells staff which identity decrypts it.';
comment on column public.contact_submissions.mailbox_hash is
  'SHA-256 of the visitor''s mailbox token (derived in the browser from their receipt): how public.read_thread finds the thread.';
comment on column public.contact_submissions.status is
  'new, responded, engaged, completed or declined. Staff change it (the inbox, table editor or npm run inbox); the times follow by trigger.';
comment on column public.contact_submissions.responded_at is
  'Set by trigger when the status first leaves new.';
comment on column public.contact_submissions.completed_at is
  'Set by trigger when the row is closed (completed or declined); the purge deletes it 24 hours later.';
comment on column public.contact_submissions.overdue_alerted_at is
  'When the overdue alert (still new after 20 hours) was sent; set once by private.alert_overdue_submissions.';
comment on column public.contact_submissions.responded_by is
  'Email of the staff account that last answered (sealed reply, or status moved to responded/engaged from the inbox). Stamped by the database.';
comment on column public.contact_submissions.awaiting_reply_since is
  'When a visitor''s message arrived that nobody has answered yet; cleared by a staff reply or a status change.';
