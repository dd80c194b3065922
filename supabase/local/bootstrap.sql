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
--   * auth tables (users, sessions…): the product signs nobody in.

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

-- Where applied migrations are recorded, in the Supabase CLI's shape (one row per file version),
-- so `supabase migration list` / `db push` semantics carry over. The CLI also keeps each
-- migration's statements there; nothing here reads them, so they are not stored.
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text not null primary key
);
alter table supabase_migrations.schema_migrations add column if not exists name text;
