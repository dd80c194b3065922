/**
 * What the build's prerender of the first screen (src/build/inbox-prerender-plugin.ts) gets in
 * place of supabase-client.ts: the real one reads the browser's storage on import. The first
 * screen's render never calls it; if it ever did, the build fails here rather than ship a page
 * rendered from a guess.
 */
function unusable<T>(name: string): T {
  return new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(`The prerendered first screen used ${name}.${String(property)}`)
      },
    },
  ) as T
}

export const supabase = unusable<typeof import('./supabase-client').supabase>('supabase')
export const sessionStore =
  unusable<typeof import('./supabase-client').sessionStore>('sessionStore')
