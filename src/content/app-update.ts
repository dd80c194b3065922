/** Service worker updates and offline readiness, announced through the site's toasts. */
export const appUpdateCopy = {
  offlineReady: {
    title: 'Ready to work offline',
    description:
      'This site now opens without a connection, and messages you send offline wait here until you are back.',
  },
  updateAvailable: {
    title: 'A new version is available',
    description: 'Reload to use it. Anything you have typed is kept until you choose to reload.',
  },
  activatedElsewhere: {
    title: 'A new version is ready',
    description:
      'It was switched on from another tab. Reload when you are ready: anything you have typed stays until then.',
  },
  reload: 'Reload',
  reloadAltText: 'Reload the page to use the new version',
} as const
