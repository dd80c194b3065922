-- Schedules the staff side's jobs with pg_cron where it exists (Supabase), and skips cleanly
-- where it does not (PGlite, a plain PostgreSQL without the extension preloaded): there the local
-- backend's timers run the same functions.
--
-- Jobs (names are the upsert keys: scheduling a name again replaces its schedule and command;
-- times are UTC):
--   * contact-purge, hourly at :17: private.purge_contact_submissions(). Closed rows are due 24
--     hours after closing; an hourly run deletes them within 25 hours (a daily run could leave
--     them up to 48), the same cadence as the local backend's timer.
--   * contact-overdue-alerts, every 15 minutes: private.alert_overdue_submissions().
--   * cron-history-cleanup, daily at 03:47: pg_cron never trims cron.job_run_details itself, so
--     keep 7 days of run history.
--
-- pg_cron itself is enabled here when the server can load it (Supabase preloads it; creating it
-- is what the dashboard's "enable" does). If pg_cron is enabled later, run
-- `select private.schedule_contact_jobs();` once: it is idempotent.

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
      -- Supabase's documented placement. Fails unless the server preloads pg_cron and this is
      -- the database cron.database_name names: then there is no scheduler here, and we skip.
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
