-- What a fresh Supabase database has before the first migration, for a plain PostgreSQL (the
-- pgTAP suite, a developer's own server) or the embedded PGlite of the local stand-in.
--
-- Run as a superuser, before `supabase/migrations/*.sql`. Idempotent: roles are cluster-wide, so
-- this runs on clusters where they already exist and may run many times (each throwaway test
-- database runs it again). Never run it against a hosted Supabase project: the platform owns
-- these objects there.
--
-- Source of the shapes: supabase/postgres init scripts and the CLI's dumps of a fresh project
-- (see shared/reference/supabase-rest-contract.md §4.6). Left out on purpose:
--   * default privileges that grant every new public table to the API roles: the project sets
--     `auto_expose_new_tables = false` (supabase/config.toml) and migrations grant explicitly;
--   * role settings such as anon's statement_timeout: they apply at login, and the API roles are
--     only ever entered with SET ROLE, as PostgREST does;
--   * most of Supabase Auth's own tables and columns: only the subset below, under GoTrue's names,
--     which the migrations reference (auth.users) and the local Auth stand-in stores into.

-- Roles. Created only if missing, then brought to the attributes Supabase gives them, so a role
-- left behind with other attributes cannot make the tests pass for the wrong reason. A parallel
-- run on the same cluster may create a role between the check and the create: that is fine. Roles
-- are altered and granted only when they differ: concurrent bootstraps of databases on one cluster
-- (the test suites run several) would otherwise update the same catalog rows and fail with
-- "tuple concurrently updated".
do $bootstrap$
declare
  spec record;
begin
  for spec in
    select *
    from (values
      ('anon', false, false),
      ('authenticated', false, false),
      ('service_role', false, true),
      ('authenticator', true, false)
    ) as roles (name, can_login, bypass_rls)
  loop
    if not exists (select from pg_catalog.pg_roles where rolname = spec.name) then
      begin
        execute format('create role %I noinherit', spec.name);
      exception
        when duplicate_object or unique_violation then null;
      end;
    end if;
    if not exists (
      select from pg_catalog.pg_roles
       where rolname = spec.name and rolcanlogin = spec.can_login
         and not rolinherit and rolbypassrls = spec.bypass_rls
    ) then
      execute format('alter role %I %s noinherit %s', spec.name,
        case when spec.can_login then 'login' else 'nologin' end,
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

grant usage on schema public to anon, authenticated, service_role;

-- Extensions live in their own schema, as on Supabase (`create extension … with schema extensions`).
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;

-- pgcrypto comes with every Supabase project and the migrations use it (digest, hmac, random
-- bytes). The local backend loads PGlite's pgcrypto bundle; PostgreSQL ships it in contrib.
create extension if not exists pgcrypto with schema extensions;

-- The helpers RLS policies call. They read the GUCs PostgREST sets in each request's transaction
-- (request.jwt.claims, and the older per-claim request.jwt.claim.*), exactly as Supabase defines them.
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

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
-- with their challenges.
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
  factor_type text not null,
  status text not null,
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
  aal text
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
-- As on Supabase: the API roles reach these only through Auth, never directly.
revoke all on all tables in schema auth from anon, authenticated;

-- Where applied migrations are recorded, in the Supabase CLI's shape (one row per file version),
-- so `supabase migration list` / `db push` semantics carry over. The CLI also keeps each
-- migration's statements there; nothing here reads them, so they are not stored.
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text not null primary key
);
alter table supabase_migrations.schema_migrations add column if not exists name text;

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
