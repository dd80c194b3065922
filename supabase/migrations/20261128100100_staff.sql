-- The staff side: who may read (sign-in with a second factor), the workflow status, purge by the
-- database itself, the 24-hour watch, content-free alerts, and the jobs that run them.
--
-- The contact page promises "< 24hrs" and "purged after project completion"; this makes both
-- mechanisms that run by themselves:
--   * `status` (new → responded/engaged → completed/declined) with times stamped by a trigger, so
--     the inbox, the dashboard's table editor and `npm run inbox` record the same facts;
--   * private.purge_contact_submissions() deletes closed rows a day after closing and every row
--     past a retention cap (settings row, default 90 days); pg_cron runs it on Supabase, the
--     local backend's timer on PGlite;
--   * views of what is overdue and of how fast staff answer, for staff only;
--   * alerts that carry an event name and the id's first 8 characters, nothing else: on Supabase a
--     pg_net call to the staff-alert Edge Function, whose URL and shared secret are read from
--     Vault at call time; elsewhere a pg_notify the local backend listens to.
-- Staff read in two ways, each with exactly the rights the inbox needs:
--   * signed in with Supabase Auth (the staff inbox): private.staff_members is the list, and one
--     gate, staff_access.is_inbox_reader(), decides every request: signed in, not anonymous, on
--     the list, the token at aal2 (password and second factor), its session still live;
--   * a database login in the NOLOGIN group role contact_staff (`npm run inbox`).
--
-- Safe on a hosted project (the only role it creates is contact_staff, a NOLOGIN group role), on
-- plain PostgreSQL 15 and on PGlite: pg_net, Vault and pg_cron are looked up at run time through
-- dynamic SQL, so this compiles and runs where they do not exist. auth.users and auth.sessions are
-- Supabase Auth's own tables (the local backend's bootstrap.sql stands in for them).

-- ---------------------------------------------------------------- status times

-- Response times outlive the rows they measure: closed rows are purged a day after closing, so a
-- 90-day statistic cannot be computed from the table. This keeps only the day and the delay
-- (to the minute), no id, no reference, and is itself cut to 90 days by the purge. A response is
-- a sealed reply or a status a person sets to say they answered elsewhere (responded, engaged);
-- an inquiry closed while nobody had answered it is logged with no delay, and counted apart.
create table private.response_log (
  responded_on date not null,
  response_time interval
);
create index response_log_responded_on_idx on private.response_log (responded_on);
alter table private.response_log enable row level security;
revoke all on table private.response_log from public, anon, authenticated;
grant all on table private.response_log to service_role;

comment on table private.response_log is
  'Content-free response-time history (day, delay to the minute; no delay: closed unanswered) for private.response_times; kept 90 days.';

-- Stamps the times when the status changes, and only then: a write of responded_at or
-- completed_at by hand is ignored (the trigger's values win), so the dashboard cannot backdate an
-- answer. responded_at is the first answer: a status that says staff answered (responded,
-- engaged), or a sealed reply (whose trigger sets responded). Closing an inquiry nobody answered
-- (completed or declined from new) stamps completed_at only and logs it as closed unanswered.
-- Going back to `new` is refused: the overdue alert would fire for it a second time.
create function private.contact_submissions_stamp_status()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  closed constant text[] := array['completed', 'declined'];
  answered constant text[] := array['responded', 'engaged'];
begin
  if tg_op = 'INSERT' then
    -- Anon cannot name these columns (no grant); staff tooling inserting a handled row may.
    new.responded_at := case when new.status = any (answered) or new.responded_at is not null
                             then coalesce(new.responded_at, now()) end;
    new.completed_at := case when new.status = any (closed) then coalesce(new.completed_at, now()) end;
    if new.status <> 'new' then
      insert into private.response_log (responded_on, response_time)
      values ((coalesce(new.responded_at, new.completed_at) at time zone 'UTC')::date,
              date_trunc('minute', new.responded_at - new.created_at));
    end if;
    return new;
  end if;

  new.responded_at := old.responded_at;
  new.completed_at := old.completed_at;
  if new.status is distinct from old.status then
    if new.status = 'new' then
      raise exception using
        errcode = 'check_violation',
        message = 'a submission''s status cannot go back to new',
        hint = 'Use responded or engaged to reopen a closed submission.';
    end if;
    if old.responded_at is null and new.status = any (answered) then
      new.responded_at := now();
      insert into private.response_log (responded_on, response_time)
      values ((now() at time zone 'UTC')::date, date_trunc('minute', now() - new.created_at));
    elsif old.status = 'new' and new.status = any (closed) then
      insert into private.response_log (responded_on, response_time)
      values ((now() at time zone 'UTC')::date, null);
    end if;
    if new.status = any (closed) then
      new.completed_at := coalesce(old.completed_at, now());
    else
      new.completed_at := null;
    end if;
  end if;
  return new;
end
$$;

revoke all on function private.contact_submissions_stamp_status() from public;

create trigger contact_submissions_stamp_status
  before insert or update on public.contact_submissions
  for each row execute function private.contact_submissions_stamp_status();

-- ---------------------------------------------------------------- settings

-- One row (the primary key can only be true). Change it with
-- `update private.contact_settings set retention_days = 60;` as the project owner.
create table private.contact_settings (
  singleton boolean not null default true,
  -- Any row older than this is purged whatever its status: nothing is kept indefinitely.
  retention_days integer not null default 90,
  updated_at timestamptz not null default now(),

  constraint contact_settings_pkey primary key (singleton),
  constraint contact_settings_singleton_check check (singleton),
  constraint contact_settings_retention_days_check check (retention_days between 1 and 365)
);
insert into private.contact_settings default values;

alter table private.contact_settings enable row level security;
revoke all on table private.contact_settings from public, anon, authenticated;
grant all on table private.contact_settings to service_role;

comment on table private.contact_settings is
  'Retention settings (one row): retention_days caps how long any submission is kept (default 90).';

-- ---------------------------------------------------------------- staff alerts

-- The whole alert, built from an event name and an id and nothing else: the function cannot see
-- any other column, so no name, contact, brief, ciphertext or key id can reach an alert. Events:
-- contact.new (an inquiry), contact.overdue (still new after 20 hours), contact.limit (the form's
-- global cap reached), contact.message (a visitor wrote in a thread). pg_net sends the body as
-- jsonb, which orders the keys its own way; readers parse it.
create function private.staff_alert_payload(event text, submission_id uuid default null)
  returns text
  language plpgsql
  immutable
  parallel safe
  set search_path = ''
as $$
begin
  if event is null or event not in ('contact.new', 'contact.overdue', 'contact.limit', 'contact.message') then
    raise exception using errcode = 'invalid_parameter_value', message = 'unknown staff alert event';
  end if;
  return format(
    '{"event":%s,"ref":%s}',
    to_json(event)::text,
    coalesce(to_json(left(submission_id::text, 8))::text, 'null')
  );
end
$$;

comment on function private.staff_alert_payload(text, uuid) is
  'The staff alert JSON: exactly {"event":…,"ref":<first 8 characters of the id, or null>}.';

-- A POST to an Edge Function where pg_net and Vault exist (Supabase), nothing elsewhere: the URL
-- and a shared secret are the Vault secrets `url_secret` and `token_secret`, read at call time; the
-- secret travels in the header `token_header`, never in the URL (pg_net keeps URLs in
-- net._http_response for hours; the request row holding the header is deleted once sent). All of
-- it through dynamic SQL, so this compiles where neither schema exists. A failure to queue the
-- request never fails the caller (a visitor's insert, the purge). True when it was queued.
create function private.post_to_function(url_secret text, token_secret text, token_header text, body text)
  returns boolean
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  function_url text;
  token text;
begin
  if to_regclass('vault.decrypted_secrets') is null
     or not exists (
       select from pg_catalog.pg_proc as p
       join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
       where n.nspname = 'net' and p.proname = 'http_post'
     ) then
    return false;
  end if;

  begin
    execute $sql$
      select max(decrypted_secret) filter (where name = $1),
             max(decrypted_secret) filter (where name = $2)
        from vault.decrypted_secrets
       where name in ($1, $2)
    $sql$ into function_url, token using url_secret, token_secret;
    if function_url is null or token is null then
      return false;
    end if;
    execute $sql$
      select net.http_post(
        url := $1,
        body := $2::jsonb,
        headers := jsonb_build_object('content-type', 'application/json', $3, $4),
        timeout_milliseconds := 5000
      )
    $sql$ using function_url, body, token_header, token;
    return true;
  exception when others then
    -- Only the error code and which call: never the URL, the secret or the body.
    raise warning '% not queued (SQLSTATE %)', url_secret, sqlstate;
    return false;
  end;
end
$$;

revoke all on function private.post_to_function(text, text, text, text) from public;

-- On Supabase a POST to the staff-alert Edge Function (Vault secrets `staff_alert_webhook_url` and
-- `staff_alert_webhook_secret`, the secret in the x-staff-alert-secret header); where it is not
-- configured, a pg_notify on channel staff_alert (the local backend listens and forwards or prints
-- it). Not both: a transaction that notifies holds a lock of the whole database through its
-- commit, so every visitor's insert would take turns at commit where nobody listens.
create function private.send_staff_alert(payload text)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  if not private.post_to_function('staff_alert_webhook_url', 'staff_alert_webhook_secret',
                                  'x-staff-alert-secret', payload) then
    perform pg_notify('staff_alert', payload);
  end if;
end
$$;

comment on function private.send_staff_alert(text) is
  'net.http_post to the Vault-configured staff-alert webhook where it is configured (Supabase), else pg_notify(''staff_alert'', payload).';

create function private.contact_submissions_alert_staff()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
begin
  perform private.send_staff_alert(private.staff_alert_payload('contact.new', new.id));
  return null;
end
$$;

create trigger contact_submissions_alert_staff
  after insert on public.contact_submissions
  for each row execute function private.contact_submissions_alert_staff();

-- Second alert, once per row: still `new` 20 hours after it arrived, 4 hours before the promise
-- runs out. Returns how many rows it alerted for. pg_cron runs it every 15 minutes on Supabase,
-- the local backend's timer on PGlite.
create function private.alert_overdue_submissions(at timestamptz default now())
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  overdue record;
  alerted integer := 0;
begin
  for overdue in
    update public.contact_submissions as c
       set overdue_alerted_at = alert_overdue_submissions.at
     where c.status = 'new'
       and c.overdue_alerted_at is null
       and c.created_at <= alert_overdue_submissions.at - interval '20 hours'
    returning c.id
  loop
    perform private.send_staff_alert(private.staff_alert_payload('contact.overdue', overdue.id));
    alerted := alerted + 1;
  end loop;
  return alerted;
end
$$;

comment on function private.alert_overdue_submissions(timestamptz) is
  'Alerts staff (contact.overdue) once for each submission still new 20 h after it arrived; returns the count.';

-- ---------------------------------------------------------------- the 24-hour watch

-- Security invoker: staff see through it exactly what their own policies let them see.
create view private.overdue_submissions
  with (security_invoker = true)
as
  select id,
         left(id::text, 8) as ref,
         created_at,
         now() - created_at as waiting,
         key_id,
         overdue_alerted_at
    from public.contact_submissions
   where status = 'new'
     and created_at < now() - interval '24 hours'
   order by created_at;

comment on view private.overdue_submissions is
  'Submissions still new more than 24 hours after they arrived, oldest first.';

-- Aggregates only, over the content-free log; owner's rights, so staff need no grant on the log.
-- within_24h is the share answered within the promise: keep "< 24hrs" on the site while p50 and
-- this share say it is true.
create view private.response_times as
  select count(response_time)::integer as responded,
         percentile_cont(0.5) within group (order by response_time) as p50,
         percentile_cont(0.9) within group (order by response_time) as p90,
         round(avg(case when response_time <= interval '24 hours' then 1 else 0 end)
                 filter (where response_time is not null), 3) as within_24h,
         (count(*) - count(response_time))::integer as closed_unanswered
    from private.response_log
   where responded_on > (now() at time zone 'UTC')::date - 90;

comment on view private.response_times is
  'Over the last 90 days: how many inquiries were answered, the median and 90th percentile time to the first answer, the share within 24 hours, and how many were closed with no answer.';

revoke all on table private.overdue_submissions, private.response_times from public, anon, authenticated;
grant select on table private.overdue_submissions, private.response_times to service_role;

-- ---------------------------------------------------------------- the contact_staff login role

-- A group role: staff logins are its members (`create role ada login … in role contact_staff`), so
-- nobody's laptop holds service_role. Roles are cluster-wide: created only if missing; a parallel
-- run creating it between the check and the create is fine.
do $role$
begin
  if not exists (select from pg_catalog.pg_roles where rolname = 'contact_staff') then
    begin
      create role contact_staff nologin;
    exception
      when duplicate_object or unique_violation then null;
    end;
  end if;
end
$role$;

comment on role contact_staff is
  'Agency staff (group role, NOLOGIN): read submissions and the watch views, change status. Members are staff logins.';

grant usage on schema public to contact_staff;
grant usage on schema private to contact_staff;

-- Exactly what `npm run inbox` does: read rows, read the views, change the status (the trigger
-- stamps the times). No insert, no delete, no other column: purge is the database's job.
grant select on table public.contact_submissions to contact_staff;
grant update (status) on table public.contact_submissions to contact_staff;
grant select on table private.overdue_submissions, private.response_times to contact_staff;

create policy contact_submissions_staff_select
  on public.contact_submissions
  as permissive
  for select
  to contact_staff
  using (true);

create policy contact_submissions_staff_update
  on public.contact_submissions
  as permissive
  for update
  to contact_staff
  using (true)
  with check (true);

-- ---------------------------------------------------------------- the staff list and the gate

create table private.staff_members (
  user_id uuid primary key references auth.users (id) on delete cascade,
  added_at timestamptz not null default now()
);

comment on table private.staff_members is
  'Who may read sealed submissions through Supabase Auth (with a second factor). Checked on every request.';

alter table private.staff_members enable row level security;
revoke all on table private.staff_members from public, anon, authenticated;
grant all on table private.staff_members to service_role;

-- staff_access holds the gate and what must run with the owner's rights to serve staff; it is not
-- an API schema, and `private` stays closed to the API roles.
create schema if not exists staff_access;
revoke all on schema staff_access from public;
grant usage on schema staff_access to authenticated, service_role;

-- Owner's rights, so the caller needs no grant on the list or on auth.sessions. `(select ...)` in
-- the policies makes PostgreSQL evaluate it once per statement, not once per row.
--   * Membership is read on every request, never carried in a token: removing someone takes
--     effect on their next request, whatever token they still hold.
--   * The token's session_id (the primary key of auth.sessions, in every GoTrue access token) must
--     still be a session of that user. An access token stays a valid JWT until it expires (an hour
--     by default) and PostgREST checks only its signature and expiry; signing out everywhere, a
--     password change or an admin's removal of a second factor delete the session's row, so the
--     other devices read nothing on their next request. Compared as text, so a token without a
--     session_id, or with one that is not a uuid, is refused rather than answered with an error.
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
     and exists (
       select from auth.sessions as s
        where s.id::text = auth.jwt() ->> 'session_id' and s.user_id = auth.uid()
     )
$$;

comment on function staff_access.is_inbox_reader() is
  'True when the request is a signed-in, non-anonymous user on private.staff_members whose token is aal2 (password and second factor) and whose session (session_id) still exists in auth.sessions.';

revoke all on function staff_access.is_inbox_reader() from public;
grant execute on function staff_access.is_inbox_reader() to authenticated, service_role;

-- ---------------------------------------------------------------- signed-in staff: the rows

-- The columns the inbox needs, and status; no insert, no delete, no other column (the hash of the
-- visitor's mailbox stays out: staff never need it).
grant select (id, key_id, sealed, status, created_at, responded_at, completed_at, responded_by, awaiting_reply_since)
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

-- ---------------------------------------------------------------- signed-in staff: the watch views

-- The private views keep the rules; these show them to staff past the gate, and nothing to anyone
-- else. The privileged part (the rows, with the owner's rights) is a function in staff_access,
-- and each view in public runs with its caller's rights (security_invoker), so reading it needs
-- EXECUTE on that function, which only authenticated and service_role have: no view in the API's
-- schema runs with its owner's rights (Security Advisor: security_definer_view).
-- overdue_alerted_at stays out, as it does from the column grant.
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

create function staff_access.response_times()
  returns table (responded integer, p50 interval, p90 interval, within_24h numeric, closed_unanswered integer)
  language sql
  stable
  security definer
  set search_path = ''
as $$
  select t.responded, t.p50, t.p90, t.within_24h, t.closed_unanswered
    from private.response_times as t
   where staff_access.is_inbox_reader()
$$;

revoke all on function staff_access.overdue_submissions(), staff_access.response_times() from public;
grant execute on function staff_access.overdue_submissions() to authenticated;
grant execute on function staff_access.response_times() to authenticated, service_role;

create view public.inbox_overdue_submissions
  with (security_invoker = true)
as
  select * from staff_access.overdue_submissions();

create view public.inbox_response_times
  with (security_invoker = true)
as
  select * from staff_access.response_times();

comment on view public.inbox_overdue_submissions is
  'private.overdue_submissions for staff signed in with a second factor; empty for anyone else.';
comment on view public.inbox_response_times is
  'private.response_times for staff signed in with a second factor; empty for anyone else. Runs with the caller''s rights.';

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

-- ---------------------------------------------------------------- the purge

-- Deletes closed rows (completed or declined more than 24 hours before `at`) and every row
-- created more than retention_days before `at`; returns how many inquiries it deleted. `at` is a
-- parameter so tests are deterministic; schedulers call it with the default. A thread's messages
-- and counts go with their inquiry (ON DELETE CASCADE); its files are queued for removal by a
-- trigger (files migration). It also trims what outlives the rows: the content-free response log
-- to 90 days, and the rate-limit events of the form, the thread and the files to 24 hours (no
-- window is longer), and queues day-old files nobody's row names. Those tables come with the
-- migrations after this one; PL/pgSQL resolves them when the function runs.
create function private.purge_contact_submissions(at timestamptz default now())
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  retention integer;
  deleted integer;
begin
  select s.retention_days into retention from private.contact_settings as s;
  delete from public.contact_submissions as c
   where (c.status in ('completed', 'declined') and c.completed_at < purge_contact_submissions.at - interval '24 hours')
      or c.created_at < purge_contact_submissions.at - make_interval(days => coalesce(retention, 90));
  get diagnostics deleted = row_count;
  delete from private.response_log as l
   where l.responded_on < (purge_contact_submissions.at at time zone 'UTC')::date - 90;
  delete from private.contact_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  delete from private.thread_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  delete from private.attachment_rate_events as e
   where e.at < purge_contact_submissions.at - interval '24 hours';
  delete from private.attachment_reservations as r
   where r.reserved_at < purge_contact_submissions.at - interval '24 hours';
  delete from private.attachment_reservations as r
   where r.reserved_at < purge_contact_submissions.at - interval '24 hours';
  perform private.queue_orphan_attachments(purge_contact_submissions.at);
  return deleted;
end
$$;

comment on function private.purge_contact_submissions(timestamptz) is
  'Deletes submissions closed more than 24 h before `at` and any older than contact_settings.retention_days (returns that count); trims the response log to 90 days and rate events to 24 hours; queues day-old orphan files.';

-- Views and functions are staff- and scheduler-only; PUBLIC's default EXECUTE is taken back.
revoke all on function private.purge_contact_submissions(timestamptz) from public;
revoke all on function private.alert_overdue_submissions(timestamptz) from public;
revoke all on function private.send_staff_alert(text) from public;
revoke all on function private.contact_submissions_alert_staff() from public;
revoke all on function private.staff_alert_payload(text, uuid) from public;
grant execute on function private.purge_contact_submissions(timestamptz) to service_role;
grant execute on function private.alert_overdue_submissions(timestamptz) to service_role;
grant execute on function private.staff_alert_payload(text, uuid) to service_role;

-- ---------------------------------------------------------------- the jobs (pg_cron)

-- Scheduled with pg_cron where it exists (Supabase), skipped cleanly where it does not (PGlite, a
-- plain PostgreSQL without the extension preloaded): there the local backend's timers run the
-- same functions. Jobs (names are the upsert keys: scheduling a name again replaces its schedule
-- and command; times are UTC):
--   * contact-purge, hourly at :17: private.purge_contact_submissions(). Closed rows are due 24
--     hours after closing; an hourly run deletes them within 25 hours (a daily run could leave
--     them up to 48), the same cadence as the local backend's timer.
--   * contact-overdue-alerts, every 15 minutes: private.alert_overdue_submissions().
--   * cron-history-cleanup, daily at 03:47: pg_cron never trims cron.job_run_details itself, so
--     keep 7 days of run history.
-- If pg_cron is enabled later, run `select private.schedule_contact_jobs();` once: it is idempotent.
create function private.schedule_contact_jobs()
  returns integer
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  job record;
  scheduled integer := 0;
begin
  -- The cron schema may be absent altogether: check before naming anything in it.
  if not exists (select from pg_catalog.pg_extension where extname = 'pg_cron') then
    return 0;
  end if;
  for job in
    select *
    from (values
      ('contact-purge', '17 * * * *', 'select private.purge_contact_submissions()'),
      ('contact-overdue-alerts', '*/15 * * * *', 'select private.alert_overdue_submissions()'),
      ('cron-history-cleanup', '47 3 * * *',
       'delete from cron.job_run_details where end_time < now() - interval ''7 days''')
    ) as jobs (name, schedule, command)
  loop
    -- Dynamic, so this function compiles where the cron schema does not exist.
    execute 'select cron.schedule($1, $2, $3)' using job.name, job.schedule, job.command;
    scheduled := scheduled + 1;
  end loop;
  return scheduled;
end
$$;

revoke all on function private.schedule_contact_jobs() from public;

comment on function private.schedule_contact_jobs() is
  'Registers the contact-purge, contact-overdue-alerts and cron-history-cleanup pg_cron jobs; returns 0 where pg_cron is not installed.';

do $cron$
begin
  if not exists (select from pg_catalog.pg_extension where extname = 'pg_cron')
     and exists (select from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    begin
      -- Supabase's documented placement (creating it is what the dashboard's "enable" does).
      -- Fails unless the server preloads pg_cron and this is the database cron.database_name
      -- names: then there is no scheduler here, and we skip.
      create extension pg_cron with schema pg_catalog;
    exception
      when others then
        raise notice 'pg_cron could not be enabled here (%): staff jobs are not scheduled', sqlerrm;
    end;
  end if;

  if private.schedule_contact_jobs() = 0 then
    raise notice 'pg_cron is not installed: run the purge and the overdue sweep another way (the local backend does)';
  end if;
end
$cron$;

-- ---------------------------------------------------------------- GraphQL

-- Nothing here uses GraphQL: the site, the inbox and the staff CLI speak to PostgREST only. A
-- hosted project has pg_graphql enabled, and it describes (names, columns, relations) every
-- relation a role may select to that role at /graphql/v1, so the Security Advisor warns for each
-- relation signed-in staff need. The linter's own remedy for a project that does not use GraphQL
-- is to disable the extension, which also takes an unused endpoint off the internet. Where it is
-- absent (plain PostgreSQL, PGlite) this does nothing. If the platform refuses, the migration goes
-- on and says so: then turn it off in the dashboard (Database → Extensions → pg_graphql).
do $graphql$
begin
  if exists (select from pg_catalog.pg_extension where extname = 'pg_graphql') then
    begin
      drop extension pg_graphql;
    exception
      when others then
        raise warning 'pg_graphql could not be disabled here (SQLSTATE %): disable it under Database → Extensions', sqlstate;
    end;
  end if;
end
$graphql$;

-- ---------------------------------------------------------------- Security Advisor: left as INFO
--
-- The dashboard's Security Advisor (splinter) finds no ERROR and no WARN on this schema
-- (supabase/tests/security_advisor.test.sql holds what it checks). Left as INFO, on purpose:
--   * rls_enabled_no_policy on every table in `private`: the API roles have no USAGE on the schema
--     and no grant on the tables; row level security with no policy is the second lock.
--   * no_primary_key on private.response_log and the rate-limit event tables: none has a natural
--     key (two events or two answers may share a time and a bucket or a delay), and a surrogate id
--     would give content-free logs a running number they were built without.
--   * unused_index: counted since the last statistics reset; a fresh database has used none.
