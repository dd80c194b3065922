/**
 * The look of the replies page's fields: the contact form's (components/form-field.tsx,
 * `inputClasses`), restated on purpose. Importing that module here would split it out of the
 * contact page's chunk into one of its own, fetched by /contact as one more file (the bundler
 * shares a module the two pages use), and the contact page must load no more than it did.
 */
export const repliesFieldClasses =
  'block w-full rounded-xl border border-line bg-ink px-4 py-3 text-base text-text placeholder:text-muted/80 transition-colors hover:border-muted/50 focus:border-mint focus:outline-none focus-visible:outline-2 focus-visible:outline-mint aria-[invalid=true]:border-danger disabled:opacity-60'
