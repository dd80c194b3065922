-- What a fresh Supabase database has before the first migration, for a plain PostgreSQL (the
-- pgTAP suite, a developer's own server) or the embedded PGlite of the local stand-in.
--
-- Run as a superuser, before `supabase/migrations/*.sql`. Idempotent: roles are cluster-wide, so
-- this runs on clusters where they already exist and may run many times (each throwaway test
-- database runs it again). Never run it against a hosted Supabase project: the platform owns
-- these objects there.
--
-- Source of the shapes: supabase/postgres init scripts and migrations (read at 7db7e1a:
-- 00000000000000-initial-schema, 10000000000000_demote-postgres, 20230201083204,
-- 20230529180330_alter_api_roles_for_inherit, 20221028101028, 20231130133139), Supabase Auth's
-- migrations (supabase/auth at bc32168e) and Storage's (supabase/storage migrations/tenant). Left
-- out on purpose:
--   * default privileges that grant every new public table to the API roles: the project sets
--     `auto_expose_new_tables = false` (supabase/config.toml) and migrations grant explicitly;
--   * pg-safeupdate (it refuses UPDATE and DELETE without WHERE from the API roles; every one in the
--     migrations has a WHERE) and supautils (here `postgres` owns the Storage tables instead of
--     creating its policies through supautils' policy_grants);
--   * most of Supabase Auth's own tables and columns: only the subset below, under GoTrue's names
--     and types, which the migrations reference (auth.users, auth.sessions) and the local Auth
--     stand-in stores into.

-- The API roles. Created only if missing, then brought to the attributes Supabase gives them, so a
-- role left behind with other attributes cannot make the tests pass for the wrong reason: INHERIT
-- (20230529180330), only service_role bypasses RLS, only authenticator logs in (NOINHERIT: it holds
-- no rights of its own, it only switches to the role a JWT names). A parallel run on the same
-- cluster may create a role between the check and the create: that is fine. Roles are altered and
-- granted only when they differ: concurrent bootstraps of databases on one cluster (the test suites
-- run several) would otherwise update the same catalog rows and fail with "tuple concurrently
-- updated".
do $bootstrap$
declare
  spec record;
begin
  for spec in
    select *
    from (values
      ('anon', false, true, false),
      ('authenticated', false, true, false),
      ('service_role', false, true, true),
      ('authenticator', true, false, false)
    ) as roles (name, can_login, inherits, bypass_rls)
  loop
    if not exists (select from pg_catalog.pg_roles where rolname = spec.name) then
      begin
        execute format('create role %I', spec.name);
      exception
        when duplicate_object or unique_violation then null;
      end;
    end if;
    if not exists (
      select from pg_catalog.pg_roles
       where rolname = spec.name and rolcanlogin = spec.can_login
         and rolinherit = spec.inherits and rolbypassrls = spec.bypass_rls
    ) then
      execute format('alter role %I %s %s %s', spec.name,
        case when spec.can_login then 'login' else 'nologin' end,
        case when spec.inherits then 'inherit' else 'noinherit' end,
        case when spec.bypass_rls then 'bypassrls' else 'nobypassrls' end);
    end if;
  end loop;

  -- PostgREST logs in as authenticator and switches to the role named in the JWT.
  if not (pg_catalog.pg_has_role('authenticator', 'anon', 'member')
      and pg_catalog.pg_has_role('authenticator', 'authenticated', 'member')
      and pg_catalog.pg_has_role('authenticator', 'service_role', 'member')) then
    grant anon, authenticated, service_role to authenticator;
  end if;
end
$bootstrap$;

-- Supabase's timeouts, as role settings where Supabase sets them. PostgREST logs in as
-- authenticator (its settings apply to the connection: statement 8 s, lock 8 s) and, at each
-- request's SET ROLE, applies the settings of the role the JWT names (PostgREST 12 reads them from
-- pg_db_role_setting): anon's statements stop after 3 s (57014), authenticated's after 8 s, and
-- every lock wait after 8 s (55P03). Whoever serves the API here applies them the same way.
do $timeouts$
declare
  wanted record;
begin
  for wanted in
    select *
    from (values
      ('anon', 'statement_timeout', '3s'),
      ('authenticated', 'statement_timeout', '8s'),
      ('authenticator', 'statement_timeout', '8s'),
      ('authenticator', 'lock_timeout', '8s')
    ) as settings (role_name, name, value)
  loop
    if not exists (
      select from pg_catalog.pg_db_role_setting as s
       where s.setrole = wanted.role_name::regrole and s.setdatabase = 0
         and wanted.name || '=' || wanted.value = any (s.setconfig)
    ) then
      execute format('alter role %I set %I = %L', wanted.role_name, wanted.name, wanted.value);
    end if;
  end loop;
end
$timeouts$;

-- Supabase's `postgres`, where this cluster has none (a cluster whose superuser is named otherwise,
-- supabase_admin as on Supabase): the role `supabase db push` and `supabase test db` connect as,
-- not a superuser (10000000000000_demote-postgres), a member of the API roles (20230201083204).
-- Where `postgres` is the cluster's own superuser (PGlite, a developer's server) it stays so.
do $postgres$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'postgres') then
    begin
      create role postgres nosuperuser createdb createrole login replication bypassrls;
    exception
      when duplicate_object or unique_violation then null;
    end;
  end if;
  if not (pg_catalog.pg_has_role('postgres', 'anon', 'member')
      and pg_catalog.pg_has_role('postgres', 'authenticated', 'member')
      and pg_catalog.pg_has_role('postgres', 'service_role', 'member')) then
    grant anon, authenticated, service_role to postgres;
  end if;
end
$postgres$;

grant usage on schema public to anon, authenticated, service_role;
grant all on schema public to postgres;

-- Extensions live in their own schema, as on Supabase (`create extension … with schema extensions`),
-- created there by `postgres` (it runs Supabase's init scripts before it is demoted), so it owns it.
create schema if not exists extensions;
alter schema extensions owner to postgres;
grant usage on schema extensions to anon, authenticated, service_role;

-- pgcrypto comes with every Supabase project and the migrations use it (digest, hmac, random
-- bytes). The local backend loads PGlite's pgcrypto bundle; PostgreSQL ships it in contrib.
create extension if not exists pgcrypto with schema extensions;

-- The helpers RLS policies call. They read the GUCs PostgREST sets in each request's transaction
-- (request.jwt.claims, and the older per-claim request.jwt.claim.*), exactly as Supabase defines them.
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;
grant all on schema auth to postgres;

create or replace function auth.uid() returns uuid
  language sql stable
  as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
  language sql stable
  as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
  language sql stable
  as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
  language sql stable
  as $$
  select
    coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')
    )::jsonb
$$;

-- Supabase Auth's tables, the subset the local Auth stand-in (supabase/local/auth/) uses, under
-- GoTrue's names and types: users (bcrypt password hashes, as GoTrue stores them), sessions with
-- their assurance level and methods (mfa_amr_claims), rotating refresh tokens, and TOTP factors
-- with their challenges. The assurance level and the factors' type and status are GoTrue's enums
-- (migrations 20221003041349 and 20240729123726), so SQL that compares them as text, or writes a
-- text expression into them, fails here as it does on Supabase.
do $types$
begin
  if to_regtype('auth.aal_level') is null then
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
  end if;
  if to_regtype('auth.factor_type') is null then
    create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
  end if;
  if to_regtype('auth.factor_status') is null then
    create type auth.factor_status as enum ('unverified', 'verified');
  end if;
end
$types$;
create table if not exists auth.users (
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text unique,
  is_anonymous boolean not null default false
);
create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  secret text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The stand-in's own column (GoTrue has none): the last time step whose code this factor accepted,
-- so that a code is accepted once (RFC 6238 §5.2), where GoTrue accepts it again within its window.
alter table auth.mfa_factors add column if not exists last_totp_step bigint;
create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);
create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  factor_id uuid,
  aal auth.aal_level
);
create table if not exists auth.mfa_amr_claims (
  id uuid primary key,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authentication_method text not null
);
create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
-- As on Supabase: the API roles reach these only through Auth, never directly; `postgres` may do
-- anything with them (the dashboard's SQL editor, a migration's foreign key to auth.users).
revoke all on all tables in schema auth from anon, authenticated;
grant all on all tables in schema auth to postgres;
grant all on all sequences in schema auth to postgres;

-- Where applied migrations are recorded, in the Supabase CLI's shape (one row per file version),
-- so `supabase migration list` / `db push` semantics carry over. The CLI also keeps each
-- migration's statements there; nothing here reads them, so they are not stored.
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text not null primary key
);
alter table supabase_migrations.schema_migrations add column if not exists name text;
alter schema supabase_migrations owner to postgres;
alter table supabase_migrations.schema_migrations owner to postgres;

-- Supabase Storage's schema, the subset the project's migrations and the local Storage stand-in
-- (supabase/local/storage/) use, under Storage's names and types (supabase/storage
-- migrations/tenant, read at 4fa61fb: 0002 tables, 0003 path_tokens, 0007/0008/0013/0014/0018
-- bucket columns, 0016/0025 object columns, 0046/0049 grants, 0055 protect_delete, 0060/0061 path
-- helpers). As on Supabase: row level security on both tables, every API role granted the tables
-- (the policies decide), and no DELETE except where Storage's own connection sets
-- storage.allow_delete_query (0055): "Use the Storage API instead". Left out: the search and
-- prefix functions, analytics/vector buckets, multipart and versioning tables, the
-- updated_at and bucket-name triggers.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text
);
create unique index if not exists bname on storage.buckets using btree (name);

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  owner_id text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects using btree (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
-- On Supabase these belong to supabase_storage_admin, and `postgres` creates its policies on
-- storage.objects through supautils' policy_grants and its triggers through a grant of ALL with
-- TRIGGER (supabase/postgres 20250623125453). Ownership stands in for both here.
grant all on schema storage to postgres;
alter table storage.buckets owner to postgres;
alter table storage.objects owner to postgres;

create or replace function storage.foldername(name text)
  returns text[]
  language plpgsql
  immutable
as $function$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$function$;

create or replace function storage.filename(name text)
  returns text
  language plpgsql
  immutable
as $function$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$function$;

create or replace function storage.extension(name text)
  returns text
  language plpgsql
  immutable
as $function$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$function$;

create or replace function storage.protect_delete()
  returns trigger
  language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.',
            errcode = '42501';
  end if;
  return null;
end;
$$;

drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete
  before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete
  before delete on storage.objects
  for each statement execute function storage.protect_delete();
