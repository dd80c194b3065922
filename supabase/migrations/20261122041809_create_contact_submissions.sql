-- The Secure Contact form's submissions.
--
-- Visitors insert rows with the public anon key (supabase-js `.insert(row)`, no `.select()`), so the
-- database is the only gate between the internet and this table. It must hold on its own:
--   * the same limits as the browser's zod schema (src/features/contact/contact-fields.ts) stand
--     here as named check constraints, so a request sent around the form is refused too;
--   * grants are explicit and column-level. Supabase projects created before 2026-05-30 grant
--     everything on new public tables to anon/authenticated by default, newer ones grant nothing;
--     revoking first and granting exactly what is needed behaves the same under both;
--   * row level security is on, with an INSERT policy for anon and no SELECT policy at all, so a
--     visitor can add a row but never read, change or delete one (not even their own).
--
-- Safe for a hosted project: it creates no roles and touches no Supabase-managed schema.

create table public.contact_submissions (
  -- Made in the browser (crypto.randomUUID) so a retried insert from the offline outbox can never
  -- create a second row: the duplicate fails with 23505 (HTTP 409), which the client treats as
  -- "already received". The default serves staff and service inserts.
  id uuid not null default gen_random_uuid(),
  created_at timestamptz not null default now(),
  name text not null,
  contact text not null,
  project_type text,
  budget text,
  message text not null,
  user_agent text not null default '',

  constraint contact_submissions_pkey primary key (id),

  -- Text fields: 1..limit characters (char_length counts code points; zod counts UTF-16 units, so
  -- the browser is never laxer than this), and already trimmed. "Trimmed" uses an explicit set:
  -- space, tab, LF, vertical tab (\x0B: PostgreSQL has no \v escape, E'\v' would be the letter v),
  -- form feed, CR. A whitespace-only value is neither trimmed nor non-empty, so it is refused.
  constraint contact_submissions_name_check check (
    char_length(name) between 1 and 120
    and name = btrim(name, E' \t\n\x0B\f\r')
  ),
  constraint contact_submissions_contact_check check (
    char_length(contact) between 1 and 200
    and contact = btrim(contact, E' \t\n\x0B\f\r')
  ),
  constraint contact_submissions_message_check check (
    char_length(message) between 1 and 5000
    and message = btrim(message, E' \t\n\x0B\f\r')
  ),
  -- Captured automatically by the browser and cut to the limit there; may be empty.
  constraint contact_submissions_user_agent_check check (
    char_length(user_agent) <= 512
  ),
  -- Optional dropdowns: null when not chosen (null passes a check), else one of the form's values.
  constraint contact_submissions_project_type_check check (
    project_type in (
      'crypto/web3-launch',
      'anonymous-marketing-campaign',
      'community-building',
      'ai-automation-setup',
      'payment-solutions',
      'email/sms-sequences',
      'other'
    )
  ),
  constraint contact_submissions_budget_check check (
    budget in (
      'under-10k',
      '10k-25k',
      '25k-50k',
      '50k-100k',
      '100k-plus',
      'discuss'
    )
  )
);

-- Staff read submissions newest first.
create index contact_submissions_created_at_idx on public.contact_submissions (created_at desc);

alter table public.contact_submissions enable row level security;

-- Postgres has no negative grants: a column-level grant only narrows anything if no table-level
-- grant remains, so everything is revoked first (including what default privileges gave).
revoke all on table public.contact_submissions from public, anon, authenticated;

-- Anon may insert exactly the columns the form sends; created_at always comes from the default.
-- No SELECT: the insert works because supabase-js sends no `return=representation` (PostgREST's
-- `RETURNING 1` reads no column), and an upsert, which would need SELECT, is refused on purpose.
grant insert (id, name, contact, project_type, budget, message, user_agent)
  on table public.contact_submissions to anon;

-- The grant above lets anon reach the table; this policy lets anon's rows in. What a row may
-- contain is decided by the column grant and the check constraints (their violations then answer
-- 400 with the constraint's name instead of a vague RLS 401), so the policy itself admits any row.
-- Later limits (abuse caps) belong in separate RESTRICTIVE policies, which AND with this one.
create policy contact_submissions_anon_insert
  on public.contact_submissions
  as permissive
  for insert
  to anon
  with check (true);

-- Staff tooling and the dashboard use service_role (BYPASSRLS); it needs no policy.
grant all on table public.contact_submissions to service_role;

comment on table public.contact_submissions is
  'Secure Contact form submissions. Inserted by anonymous visitors (anon: insert only, no read); read and handled by staff with the service role or the dashboard.';
comment on column public.contact_submissions.id is
  'Generated in the visitor''s browser; a repeated insert with the same id is refused (409), which makes offline retries safe.';
comment on column public.contact_submissions.created_at is
  'When the row reached the database (not when the visitor pressed Send, if the form was queued offline).';
comment on column public.contact_submissions.name is
  'Name or preferred alias, as typed (trimmed, 1-120 characters).';
comment on column public.contact_submissions.contact is
  'Primary contact: email, Telegram handle or WhatsApp number, as typed (trimmed, 1-200 characters). Not verified.';
comment on column public.contact_submissions.project_type is
  'Project type chosen in the form, or null if none was chosen.';
comment on column public.contact_submissions.budget is
  'Budget range chosen in the form, or null if none was chosen.';
comment on column public.contact_submissions.message is
  'Project brief (trimmed, 1-5000 characters).';
comment on column public.contact_submissions.user_agent is
  'Browser identification string captured by the form (at most 512 characters).';
