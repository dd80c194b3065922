-- The purge also trims the abuse limits' rate events, so "deleted within 24 hours" holds even
-- when no visitor writes for a while (the insert guard trims them only when it runs). Same
-- signature and behaviour otherwise: pg_cron and the local backend's timer pick it up unchanged.

create or replace function private.purge_contact_submissions(at timestamptz default now())
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
