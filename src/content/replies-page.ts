/** Copy of the replies page (/replies). The reader's own labels and sentences are the feature's. */
export const repliesIntro = {
  heading: 'Replies',
  lead: 'Type your receipt to read our sealed replies and write back. Everything is opened in this browser: our server only ever holds sealed messages.',
} as const satisfies { heading: string; lead: string }
