import type { Context } from 'hono'
import { proxy } from 'hono/proxy'
import type { Gateway } from '../gateway'
import { json, Refusal } from './errors'

/**
 * `/rest/v1/*` forwarded to a real PostgREST, as the Supabase gateway (Kong) forwards it: the API
 * key checked first, the key as the bearer token when no Authorization was sent, the `/rest/v1`
 * prefix stripped. CORS, the body limit and the request log stay the gateway's (http-api.ts). The
 * REST contract suites use this to hold the emulation (rest-routes.ts) to the real thing.
 */
export function forwardRest(upstream: string, gateway: Gateway) {
  return async (c: Context): Promise<Response> => {
    let authorization: string
    try {
      authorization = await gateway.authorization(c)
    } catch (refusal) {
      if (refusal instanceof Refusal) return refusal.response
      throw refusal
    }
    const incoming = new URL(c.req.url)
    // Kong's key-auth hides the key (hide_credentials): PostgREST would read it as a filter. The
    // rest of the query string goes on byte for byte.
    const query = incoming.search
      .slice(1)
      .split('&')
      .filter((pair) => pair !== '' && !/^apikey(=|$)/.test(pair))
      .join('&')
    const path = incoming.pathname.slice('/rest/v1'.length) || '/'
    const target = `${upstream}${path}${query ? `?${query}` : ''}`
    const headers = new Headers(c.req.raw.headers)
    headers.set('authorization', authorization)
    headers.delete('host')
    const body = ['GET', 'HEAD'].includes(c.req.method) ? undefined : await c.req.arrayBuffer()
    const upstreamResponse = await proxy(target, { method: c.req.method, headers, body }).catch(
      // Kong's answer when the upstream cannot be reached.
      () => null,
    )
    if (!upstreamResponse) {
      return json(502, { message: 'An invalid response was received from the upstream server' })
    }
    const responseHeaders = new Headers(upstreamResponse.headers)
    // PostgREST's own CORS headers would duplicate the gateway's (Kong's answer wins there too).
    for (const header of [...responseHeaders.keys()]) {
      if (header.startsWith('access-control-')) responseHeaders.delete(header)
    }
    // Buffered (bodies are small): an empty body stays empty, without a Content-Type added.
    const bytes = await upstreamResponse.arrayBuffer()
    return new Response(bytes.byteLength ? bytes : null, {
      status: upstreamResponse.status,
      headers: responseHeaders,
    })
  }
}
