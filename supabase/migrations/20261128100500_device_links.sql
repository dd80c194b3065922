-- Adding a staff device without pasting a key: a new device, signed in at aal2 and without
-- the agency's key, makes a one-time age X25519 key in the browser and leaves its public half
-- here; an unlocked device finds it by the linking code typed from the new device's screen, seals
-- the key set to it, and the new device fetches that once. One row per link, and the database only
-- ever holds a one-time public key and age ciphertext to it: never a key that opens anything.
--
--   * public.device_links: RLS with the inbox's one gate (staff_access.is_inbox_reader(): on the
--     staff list, aal2). A row lives 10 minutes at most: the database stamps created_at and
--     expires_at itself, the policies hide an expired row from everyone, and every call purges
--     the expired ones first (no scheduler needed: an expired row is ciphertext nobody can reach,
--     to a one-time key that lived only in the memory of a device that has given up on it).
--   * The inbox reaches it through five functions in public that run with the caller's rights
--     (security invoker: the Security Advisor warns on a security definer function the API roles
--     may call); the purge, which must see expired rows the policies hide, runs with the owner's
--     rights in staff_access (not an API schema).
--   * fingerprint is the linking code's words (derived in the browser from the one-time public
--     key): how the unlocked device finds the row. The unlocked device checks that the public key
--     it reads here gives the words it was told, so a swapped key is refused there.
--   * The sealed key set is taken once: the function that hands it over deletes the row in the
--     same statement, and only the account that opened the link may take it.
--
-- Runs on a hosted Supabase project, on plain PostgreSQL 15 (pgTAP) and on PGlite (the local
-- backend): core functions only (gen_random_uuid is core since PostgreSQL 13).

create table public.device_links (
  id uuid not null default gen_random_uuid(),
  -- The account that opened the link (the new device's): only it may take the sealed key set.
  created_by uuid not null default auth.uid(),
  -- The linking code's five words, lowercase, joined by '-': 55 bits of SHA-256 of the recipient.
  fingerprint text not null,
  -- The one-time age X25519 recipient made by the new device (its identity never leaves it).
  recipient text not null,
  -- The key set sealed with age to recipient, ASCII armored; null until the unlocked device seals.
  sealed text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '10 minutes',

  constraint device_links_pkey primary key (id),
  constraint device_links_fingerprint_key unique (fingerprint),
  constraint device_links_fingerprint_check check (fingerprint ~ '^[a-z]{3,8}(-[a-z]{3,8}){4}$'),
  constraint device_links_recipient_check check (recipient ~ '^age1[02-9ac-hj-np-z]{58}$'),
  -- A key set is a few identities (74 characters each): 16 KiB armors dozens of them.
  constraint device_links_sealed_bounds_check check (octet_length(sealed) <= 16384),
  constraint device_links_sealed_format_check check (private.is_age_armor(sealed)),
  constraint device_links_expiry_check check (expires_at <= created_at + interval '10 minutes')
);

comment on table public.device_links is
  'Adding a staff device: a one-time age public key from the new device and, once an unlocked device has sealed it, the key set as age ciphertext to that key. 10 minutes at most, taken once.';
comment on column public.device_links.fingerprint is
  'The linking code''s words (from SHA-256 of recipient): how the unlocked device finds the row.';
comment on column public.device_links.sealed is
  'The key set sealed with age to recipient (ASCII armor), deleted when the new device takes it.';

create index device_links_expires_at_idx on public.device_links (expires_at);

alter table public.device_links enable row level security;
revoke all on table public.device_links from public, anon, authenticated;
grant select (id, created_by, fingerprint, recipient, sealed, created_at, expires_at)
  on table public.device_links to authenticated;
grant insert (fingerprint, recipient) on table public.device_links to authenticated;
grant update (sealed) on table public.device_links to authenticated;
grant delete on table public.device_links to authenticated;
grant all on table public.device_links to service_role;

-- Every policy: staff past the gate, and only a row that has not expired.
create policy device_links_staff_select
  on public.device_links
  as permissive
  for select
  to authenticated
  using ((select staff_access.is_inbox_reader()) and expires_at > now());

create policy device_links_staff_insert
  on public.device_links
  as permissive
  for insert
  to authenticated
  with check (
    (select staff_access.is_inbox_reader())
    and created_by = (select auth.uid())
    and sealed is null
  );

-- Sealed once: a row already sealed takes no other key set.
create policy device_links_staff_update
  on public.device_links
  as permissive
  for update
  to authenticated
  using ((select staff_access.is_inbox_reader()) and expires_at > now() and sealed is null)
  with check ((select staff_access.is_inbox_reader()) and sealed is not null);

create policy device_links_staff_delete
  on public.device_links
  as permissive
  for delete
  to authenticated
  using ((select staff_access.is_inbox_reader()) and created_by = (select auth.uid()));

-- The database's clock and the caller's account, whatever the request said; nothing sealed yet.
create function private.device_links_stamp()
  returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  new.created_at := now();
  new.expires_at := now() + interval '10 minutes';
  if current_setting('role', true) = 'authenticated' then
    new.created_by := auth.uid();
    new.sealed := null;
  end if;
  return new;
end
$$;

revoke all on function private.device_links_stamp() from public;

create trigger device_links_stamp
  before insert on public.device_links
  for each row execute function private.device_links_stamp();

-- ---------------------------------------------------------------- the purge

-- Expired rows, which the policies hide from their callers: with the owner's rights.
create function staff_access.purge_device_links()
  returns integer
  language sql
  security definer
  set search_path = ''
as $$
  with purged as (delete from public.device_links where expires_at <= now() returning 1)
  select count(*)::integer from purged
$$;

comment on function staff_access.purge_device_links() is
  'Deletes expired device links (10 minutes after they were opened). Called by every device_link function.';

revoke all on function staff_access.purge_device_links() from public;
grant execute on function staff_access.purge_device_links() to authenticated, service_role;

-- ---------------------------------------------------------------- the functions

-- The new device: opens a link for its one-time recipient; answers the row's id (which only it
-- learns: it takes the key set by that id). 23505 (409) when the fingerprint is in use.
create function public.device_link_open(recipient text, fingerprint text)
  returns uuid
  language plpgsql
  security invoker
  set search_path = ''
as $$
declare
  link uuid;
begin
  perform staff_access.purge_device_links();
  insert into public.device_links (fingerprint, recipient)
    values (device_link_open.fingerprint, device_link_open.recipient)
    returning id into link;
  return link;
end
$$;

-- The unlocked device: the one-time recipient the linking code names, null if none is waiting
-- (unknown, expired, or already sealed).
create function public.device_link_recipient(fingerprint text)
  returns text
  language plpgsql
  security invoker
  set search_path = ''
as $$
begin
  perform staff_access.purge_device_links();
  return (
    select l.recipient from public.device_links as l
     where l.fingerprint = device_link_recipient.fingerprint and l.sealed is null
  );
end
$$;

-- The unlocked device: the key set sealed to that recipient. True when stored; false when no
-- link is waiting for that code and recipient (unknown, expired, or already sealed).
create function public.device_link_seal(fingerprint text, recipient text, sealed text)
  returns boolean
  language plpgsql
  security invoker
  set search_path = ''
as $$
declare
  changed integer;
begin
  perform staff_access.purge_device_links();
  update public.device_links as l
     set sealed = device_link_seal.sealed
   where l.fingerprint = device_link_seal.fingerprint
     and l.recipient = device_link_seal.recipient
     and l.sealed is null;
  get diagnostics changed = row_count;
  return changed = 1;
end
$$;

-- The new device: {"state": "sealed", "sealed": ...} once, and the row is gone in the same
-- statement; {"state": "waiting"} before the unlocked device has sealed; {"state": "gone"} when
-- there is no such link (taken, expired, cancelled, or another account's).
create function public.device_link_take(link_id uuid)
  returns jsonb
  language plpgsql
  security invoker
  set search_path = ''
as $$
declare
  taken text;
begin
  perform staff_access.purge_device_links();
  delete from public.device_links as l
   where l.id = device_link_take.link_id and l.sealed is not null
   returning l.sealed into taken;
  if taken is not null then
    return jsonb_build_object('state', 'sealed', 'sealed', taken);
  end if;
  if exists (
    select from public.device_links as l
     where l.id = device_link_take.link_id and l.created_by = (select auth.uid())
  ) then
    return jsonb_build_object('state', 'waiting');
  end if;
  return jsonb_build_object('state', 'gone');
end
$$;

-- The new device gives up ("Cancel"): the row goes now rather than in 10 minutes.
create function public.device_link_cancel(link_id uuid)
  returns boolean
  language plpgsql
  security invoker
  set search_path = ''
as $$
declare
  changed integer;
begin
  perform staff_access.purge_device_links();
  delete from public.device_links as l where l.id = device_link_cancel.link_id;
  get diagnostics changed = row_count;
  return changed = 1;
end
$$;

revoke all on function public.device_link_open(text, text), public.device_link_recipient(text),
  public.device_link_seal(text, text, text), public.device_link_take(uuid),
  public.device_link_cancel(uuid) from public, anon;
grant execute on function public.device_link_open(text, text), public.device_link_recipient(text),
  public.device_link_seal(text, text, text), public.device_link_take(uuid),
  public.device_link_cancel(uuid) to authenticated, service_role;
