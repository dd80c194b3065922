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
-- run on the same cluster may create a role between the check and the create: that is fine.
do $bootstrap$
declare
  spec record;
begin
  for spec in
    select *
    from (values
      ('anon', 'nologin noinherit nobypassrls'),
      ('authenticated', 'nologin noinherit nobypassrls'),
      ('service_role', 'nologin noinherit bypassrls'),
      ('authenticator', 'login noinherit nobypassrls')
    ) as roles (name, attributes)
  loop
    if not exists (select from pg_catalog.pg_roles where rolname = spec.name) then
      begin
        execute format('create role %I %s', spec.name, spec.attributes);
      exception
        when duplicate_object or unique_violation then null;
      end;
    end if;
    execute format('alter role %I %s', spec.name, spec.attributes);
  end loop;

  -- PostgREST logs in as authenticator and switches to the role named in the JWT. Granting again
  -- is a notice, not an error.
  grant anon, authenticated, service_role to authenticator;
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
