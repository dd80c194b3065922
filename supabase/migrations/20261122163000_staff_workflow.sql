-- The staff side (issue 9): a workflow status on each submission, purge by the database itself,
-- the 24-hour watch, content-free alerts, and a staff role with exactly the rights the inbox needs.
--
-- The contact page promises "< 24hrs" and "purged after project completion"; this makes both
-- mechanisms that run by themselves:
--   * `status` (new → responded/engaged → completed/declined) with times stamped by a trigger, so
--     the dashboard's table editor and `npm run inbox` record the same facts;
--   * private.purge_contact_submissions() deletes closed rows a day after closing and every row
--     past a retention cap (settings row, default 90 days); pg_cron runs it on Supabase (next
--     migration), the local backend's timer runs it on PGlite;
--   * views of what is overdue and of how fast staff answer, for staff only;
--   * an AFTER INSERT alert that carries an event name and the id's first 8 characters, nothing
--     else: pg_notify everywhere, and on Supabase also a pg_net call to the staff-alert Edge
--     Function, whose URL and shared secret are read from Vault at call time.
--
-- Safe on a hosted project (the only role it creates is contact_staff, a NOLOGIN group role), on
-- plain PostgreSQL 15 and on PGlite: pg_net and Vault are looked up at run time through dynamic
-- SQL, so this compiles and runs where they do not exist.

-- ---------------------------------------------------------------- workflow columns

alter table public.contact_submissions
  add column status text not null default 'new',
  -- When staff first moved the row out of `new` (any answer, a refusal included). Never changes after.
  add column responded_at timestamptz,
  -- When the row was last closed (completed or declined); the purge counts 24 hours from it.
  -- Cleared if a closed row is reopened, so a returning client's row is not purged under them.
  add column completed_at timestamptz,
  -- When the overdue alert went out, so each row alerts once.
  add column overdue_alerted_at timestamptz,
  add constraint contact_submissions_status_check check (
    status in ('new', 'responded', 'engaged', 'completed', 'declined')
  ),
  -- What the trigger below maintains, stated so that no write path (service_role included) can
  -- leave a row whose times contradict its status.
  add constraint contact_submissions_status_times_check check (
    (status = 'new') = (responded_at is null)
    and (status in ('completed', 'declined')) = (completed_at is not null)
  );

-- The purge and the overdue watch scan by status and age.
create index contact_submissions_status_created_at_idx
  on public.contact_submissions (status, created_at);

-- Response times outlive the rows they measure: closed rows are purged a day after closing, so a
-- 90-day statistic cannot be computed from the table. This keeps only the day and the delay
-- (to the minute), no id, no reference, and is itself cut to 90 days by the purge.
create table private.response_log (
  responded_on date not null,
  response_time interval not null
);
create index response_log_responded_on_idx on private.response_log (responded_on);
alter table private.response_log enable row level security;
revoke all on table private.response_log from public, anon, authenticated;
grant all on table private.response_log to service_role;

comment on table private.response_log is
  'Content-free response-time history (day, delay to the minute) for private.response_times; kept 90 days.';

-- Stamps the times when the status changes, and only then: a write of responded_at or
-- completed_at by hand is ignored (the trigger's values win), so the dashboard cannot backdate an
-- answer. Going back to `new` is refused: an inquiry cannot become unanswered again, and the
-- overdue alert would fire for it a second time.
create function private.contact_submissions_stamp_status()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  closed constant text[] := array['completed', 'declined'];
begin
  if tg_op = 'INSERT' then
    -- Anon cannot name these columns (no grant); staff tooling inserting a handled row may.
    if new.status = 'new' then
      new.responded_at := null;
      new.completed_at := null;
    else
      new.responded_at := coalesce(new.responded_at, now());
      new.completed_at := case when new.status = any (closed) then coalesce(new.completed_at, now()) end;
      insert into private.response_log (responded_on, response_time)
      values ((new.responded_at at time zone 'UTC')::date, date_trunc('minute', new.responded_at - new.created_at));
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
    if old.status = 'new' then
      new.responded_at := now();
      insert into private.response_log (responded_on, response_time)
      values ((new.responded_at at time zone 'UTC')::date, date_trunc('minute', new.responded_at - new.created_at));
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

-- ---------------------------------------------------------------- settings and purge

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

-- Deletes closed rows (completed or declined more than 24 hours before `at`) and every row
-- created more than retention_days before `at`; returns how many submissions it deleted. `at` is a
-- parameter so tests are deterministic; schedulers call it with the default. Also trims the
-- content-free response log to 90 days, and the abuse limits' rate events to 24 hours, so "deleted
-- within 24 hours" holds even when no visitor writes for a while (the insert guard trims them only
-- when it runs). That table comes with a later migration (abuse_limits); PL/pgSQL resolves it when
-- the function runs, never before every migration has been applied.
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
  return deleted;
end
$$;

comment on function private.purge_contact_submissions(timestamptz) is
  'Deletes submissions closed more than 24 h before `at` and any older than contact_settings.retention_days (returns that count); trims the response log to 90 days and rate events to 24 hours.';

-- ---------------------------------------------------------------- staff alerts

-- The whole alert, built from an event name and an id and nothing else: the function cannot see
-- any other column, so no name, contact, brief, ciphertext or key id can reach an alert. The
-- JSON is written by hand for a fixed key order and no whitespace: {"event":"…","ref":"1a2b3c4d"}.
create function private.staff_alert_payload(event text, submission_id uuid default null)
  returns text
  language plpgsql
  immutable
  parallel safe
  set search_path = ''
as $$
begin
  if event is null or event not in ('contact.new', 'contact.overdue', 'contact.limit') then
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

-- Always a pg_notify on channel staff_alert (the local backend listens and forwards or prints it).
-- Where pg_net and Vault exist (Supabase) it also queues a POST to the staff-alert Edge Function:
-- the URL and the shared secret are Vault secrets `staff_alert_webhook_url` and
-- `staff_alert_webhook_secret`, read at call time; the secret travels in the x-staff-alert-secret
-- header, never in the URL (pg_net keeps URLs in net._http_response for hours; the request row
-- holding the header is deleted once sent). All of it through dynamic SQL, so this compiles where
-- neither schema exists. A failure to queue the webhook never fails the visitor's insert.
create function private.send_staff_alert(payload text)
  returns void
  language plpgsql
  security definer
  set search_path = ''
as $$
declare
  webhook_url text;
  webhook_secret text;
begin
  perform pg_notify('staff_alert', payload);

  if to_regclass('vault.decrypted_secrets') is null
     or not exists (
       select from pg_catalog.pg_proc as p
       join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
       where n.nspname = 'net' and p.proname = 'http_post'
     ) then
    return;
  end if;

  begin
    execute $sql$
      select max(decrypted_secret) filter (where name = 'staff_alert_webhook_url'),
             max(decrypted_secret) filter (where name = 'staff_alert_webhook_secret')
        from vault.decrypted_secrets
       where name in ('staff_alert_webhook_url', 'staff_alert_webhook_secret')
    $sql$ into webhook_url, webhook_secret;
    if webhook_url is null or webhook_secret is null then
      return;
    end if;
    execute $sql$
      select net.http_post(
        url := $1,
        body := $2::jsonb,
        headers := jsonb_build_object('content-type', 'application/json', 'x-staff-alert-secret', $3),
        timeout_milliseconds := 5000
      )
    $sql$ using webhook_url, payload, webhook_secret;
  exception when others then
    -- Only the error code: never the URL, the secret or the payload.
    raise warning 'staff alert webhook not queued (SQLSTATE %)', sqlstate;
  end;
end
$$;

comment on function private.send_staff_alert(text) is
  'pg_notify(''staff_alert'', payload); on Supabase also net.http_post to the Vault-configured staff-alert webhook.';

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
  select count(*)::integer as responded,
         percentile_cont(0.5) within group (order by response_time) as p50,
         percentile_cont(0.9) within group (order by response_time) as p90,
         round(avg(case when response_time <= interval '24 hours' then 1 else 0 end), 3) as within_24h
    from private.response_log
   where responded_on > (now() at time zone 'UTC')::date - 90;

comment on view private.response_times is
  'Median and 90th percentile of the time to first response (responded_at - created_at) over the last 90 days.';

-- ---------------------------------------------------------------- the staff role

-- A group role: staff logins are its members (`grant contact_staff to <login>`), so nobody's
-- laptop holds service_role. Roles are cluster-wide: created only if missing; a parallel run
-- creating it between the check and the create is fine.
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

-- Views and functions are staff- and scheduler-only; PUBLIC's default EXECUTE is taken back.
revoke all on table private.overdue_submissions, private.response_times from public, anon, authenticated;
grant select on table private.overdue_submissions, private.response_times to service_role;

revoke all on function private.purge_contact_submissions(timestamptz) from public;
revoke all on function private.alert_overdue_submissions(timestamptz) from public;
revoke all on function private.send_staff_alert(text) from public;
revoke all on function private.contact_submissions_alert_staff() from public;
revoke all on function private.staff_alert_payload(text, uuid) from public;
grant execute on function private.purge_contact_submissions(timestamptz) to service_role;
grant execute on function private.alert_overdue_submissions(timestamptz) to service_role;
grant execute on function private.staff_alert_payload(text, uuid) to service_role;

comment on column public.contact_submissions.status is
  'new, responded, engaged, completed or declined. Staff change it (table editor or npm run inbox); the times follow by trigger.';
comment on column public.contact_submissions.responded_at is
  'Set by trigger when the status first leaves new.';
comment on column public.contact_submissions.completed_at is
  'Set by trigger when the row is closed (completed or declined); the purge deletes it 24 hours later.';
comment on column public.contact_submissions.overdue_alerted_at is
  'When the overdue alert (still new after 20 hours) was sent; set once by private.alert_overdue_submissions.';
