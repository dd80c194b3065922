import { z } from 'zod'

// Zod 4 probes for `new Function` when its first object schema is built, and compiles object
// parsers with it. The site's Content-Security-Policy has no 'unsafe-eval', so the probe is
// refused and reported as a CSP violation even though Zod catches it. Jitless mode skips both.
// Every module that builds a schema imports `z` from here, so this runs before the first one.
z.config({ jitless: true })

export { z }
