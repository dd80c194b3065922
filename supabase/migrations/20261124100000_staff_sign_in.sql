-- Staff who sign in with Supabase Auth (issue 17): the database lets exactly the agency's staff
-- read sealed rows and change their status from a browser, and nobody else.
--
--   * private.staff_members is the staff list, written only by postgres and service_role
--     (`npm run staff`, the dashboard). Membership is read on every request, never carried in a
--     token: removing someone takes effect on their next request, whatever token they still hold.
--   * staff_access.is_inbox_reader() is the one gate: signed in (authenticated), on the list, with
--     a second factor (the token's aal is aal2), and not an anonymous user.
--   * authenticated may select the columns the inbox needs and update status, and RLS lets the
--     rows through only past the gate. No insert, no delete, no other column: the purge stays the
--     database's job, and the status trigger still stamps the times.
--   * The watch views reach staff through two views in public (the API's schema) that return
--     nothing unless the gate opens.
--   * staff_access holds the gate and what must run with the owner's rights to serve the views;
--     it is not an API schema, and `private` stays closed to the API roles.
--
-- The contact_staff login role (`npm run inbox`) is untouched. auth.users is Supabase Auth's own
-- table (the local backend's bootstrap.sql stands in for it).

-- ---------------------------------------------------------------- the staff list

create table private.staff_members (
  user_id uuid primary key references auth.users (id) on delete cascade,
  added_at timestamptz not null default now()
);

comment on table private.staff_members is
  'Who may read sealed submissions through Supabase Auth (with a second factor). Checked on every request.';

alter table private.staff_members enable row level security;
revoke all on table private.staff_members from public, anon, authenticated;
grant all on table private.staff_members to service_role;

-- ---------------------------------------------------------------- the gate

create schema if not exists staff_access;
revoke all on schema staff_access from public;
grant usage on schema staff_access to authenticated, service_role;

-- Owner's rights, so the caller needs no grant on the list. `(select ...)` in the policies below
-- makes PostgreSQL evaluate it once per statement, not once per row.
create function staff_access.is_inbox_reader()
  returns boolean
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', '') = 'aal2'
     and coalesce((auth.jwt() ->> 'is_anonymous')::boolean, false) = false
     and exists (select from private.staff_members as m where m.user_id = auth.uid())
$$;

comment on function staff_access.is_inbox_reader() is
  'True when the request is a signed-in, non-anonymous user on private.staff_members whose token is aal2 (password and second factor).';

revoke all on function staff_access.is_inbox_reader() from public;
grant execute on function staff_access.is_inbox_reader() to authenticated, service_role;

-- ---------------------------------------------------------------- the rows

grant select (id, key_id, sealed, status, created_at, responded_at, completed_at)
  on table public.contact_submissions to authenticated;
grant update (status) on table public.contact_submissions to authenticated;

create policy contact_submissions_inbox_select
  on public.contact_submissions
  as permissive
  for select
  to authenticated
  using ((select staff_access.is_inbox_reader()));

create policy contact_submissions_inbox_update
  on public.contact_submissions
  as permissive
  for update
  to authenticated
  using ((select staff_access.is_inbox_reader()))
  with check ((select staff_access.is_inbox_reader()));

-- ---------------------------------------------------------------- the watch views

-- The private views keep the rules; these show them to staff past the gate, and nothing to anyone
-- else. private.overdue_submissions runs with its caller's rights (security_invoker, for the
-- contact_staff role), which a view cannot lend it: its rows come through a function with the
-- owner's rights. overdue_alerted_at stays out, as it does from the column grant.
create function staff_access.overdue_submissions()
  returns table (id uuid, ref text, created_at timestamptz, waiting interval, key_id text)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select o.id, o.ref, o.created_at, o.waiting, o.key_id
    from private.overdue_submissions as o
   where staff_access.is_inbox_reader()
$$;

revoke all on function staff_access.overdue_submissions() from public;
grant execute on function staff_access.overdue_submissions() to authenticated;

create view public.inbox_overdue_submissions
  with (security_invoker = true)
as
  select * from staff_access.overdue_submissions();

comment on view public.inbox_overdue_submissions is
  'private.overdue_submissions for staff signed in with a second factor; empty for anyone else.';

create view public.inbox_response_times as
  select t.responded, t.p50, t.p90, t.within_24h
    from private.response_times as t
   where (select staff_access.is_inbox_reader());

comment on view public.inbox_response_times is
  'private.response_times for staff signed in with a second factor; empty for anyone else.';

revoke all on table public.inbox_overdue_submissions, public.inbox_response_times
  from public, anon, authenticated;
grant select on table public.inbox_overdue_submissions, public.inbox_response_times
  to authenticated, service_role;

-- ---------------------------------------------------------------- managing the list

-- For `npm run staff` (and the dashboard's SQL editor): service_role only. In public because the
-- hosted API reaches functions there (POST /rest/v1/rpc/<name>); no other role may execute them.
-- Staff are named by their Auth email; the Auth user itself is created and deleted through Auth.
create function public.add_staff_member(email text)
  returns uuid
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  member uuid;
begin
  select u.id into member from auth.users as u where lower(u.email) = lower(add_staff_member.email);
  if member is null then
    raise exception using
      errcode = 'no_data_found',
      message = format('no Supabase Auth user has the email %s', add_staff_member.email),
      hint = 'Create the user first (npm run staff -- add creates both).';
  end if;
  insert into private.staff_members (user_id) values (member) on conflict (user_id) do nothing;
  return member;
end
$$;

create function public.remove_staff_member(email text)
  returns boolean
  language sql
  security definer
  set search_path = ''
as $$
  with removed as (
    delete from private.staff_members as m
     using auth.users as u
     where u.id = m.user_id and lower(u.email) = lower(remove_staff_member.email)
    returning m.user_id
  )
  select exists (select from removed)
$$;

-- Who is on the list, and whether they have finished setting up a second factor (without one
-- they can sign in but read nothing).
create function public.list_staff_members()
  returns table (email text, user_id uuid, added_at timestamptz, second_factor boolean)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select u.email::text, m.user_id, m.added_at,
         exists (select from auth.mfa_factors as f where f.user_id = m.user_id and f.status::text = 'verified')
    from private.staff_members as m
    join auth.users as u on u.id = m.user_id
   order by lower(u.email)
$$;

revoke all on function public.add_staff_member(text), public.remove_staff_member(text),
  public.list_staff_members() from public, anon, authenticated;
grant execute on function public.add_staff_member(text), public.remove_staff_member(text),
  public.list_staff_members() to service_role;

-- ---------------------------------------------------------------- for the inbox app

-- Whether the caller may read the inbox, so an account that may not is told so, instead of
-- seeing an empty list. Says nothing about anyone else.
create function public.inbox_access()
  returns boolean
  language sql
  stable
  security invoker
  set search_path = ''
as $$
  select staff_access.is_inbox_reader()
$$;

revoke all on function public.inbox_access() from public, anon;
grant execute on function public.inbox_access() to authenticated;
