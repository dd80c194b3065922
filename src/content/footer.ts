/** The copyright line is built by the footer from the agency name and the year. */
export const footerContent = {
  tagline: 'Discreet growth for crypto, Web3 and high-risk brands.',
  privacyLine: 'No trackers, no third-party scripts. Your visit stays between you and us.',
  channelsHeading: 'Secure Channels',
  navigationHeading: 'Navigate',
  /** For a returning visitor with a receipt: /replies is in neither the header nor the sitemap. */
  repliesLabel: 'Read our replies',
} as const satisfies {
  tagline: string
  privacyLine: string
  channelsHeading: string
  navigationHeading: string
  repliesLabel: string
}
