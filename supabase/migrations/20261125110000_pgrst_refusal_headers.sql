-- PostgREST reads a `raise sqlstate 'PGRST'` only when DETAIL is a JSON object with both "status"
-- and "headers" (PgRaiseErrDetails in src/PostgREST/Error.hs, v12 to v14). The refusal without a
-- Retry-After sent '{"status":400}', so a hosted project answered an anon array insert with
-- 500 PGRST121 instead of 400 contact_one_row. DETAIL now always carries "headers" (empty when
-- there is no Retry-After). Same signature, so the grants and the callers stay as they are.
create or replace function private.pgrst_refusal(status integer, code text, message text, retry_after integer default null)
  returns void
  language plpgsql
  volatile
  set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = format('{"code":%s,"message":%s,"details":null,"hint":null}', to_json(code), to_json(message)),
    detail = case
      when retry_after is null then format('{"status":%s,"headers":{}}', status)
      else format('{"status":%s,"headers":{"Retry-After":"%s"}}', status, retry_after)
    end;
end
$$;
