-- The staff gate also asks Auth's session table (issue 25): a token whose session has ended reads
-- nothing on its next request, as removal from the staff list already does.
--
--   * A GoTrue access token is a JWT that stays valid until it expires (an hour by default), and
--     PostgREST checks only its signature and expiry. "Sign out everywhere" (POST /logout with
--     scope global), a sign-out elsewhere, a password change or an admin's removal of a second
--     factor delete the session's row in auth.sessions and revoke its refresh tokens; without
--     this check the other devices' access tokens would still read the inbox until they expire.
--   * Every access token carries session_id, the primary key of auth.sessions (Supabase's "User
--     sessions" guide). The gate now requires that row to exist and to belong to the token's
--     user. Compared as text, so a token without a session_id, or with one that is not a uuid,
--     is refused rather than answered with an error.
--   * The function keeps its owner's rights (security definer): the API roles get no grant on
--     auth.sessions.

create or replace function staff_access.is_inbox_reader()
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
