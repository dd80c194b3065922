import { siteEnv } from '../lib/env'

/** Facts about the agency shown across the frame; values come from configuration. */
export const site = {
  name: siteEnv.agencyName,
  telegramUrl: siteEnv.telegramUrl,
  whatsappUrl: siteEnv.whatsappUrl,
  founderEmail: siteEnv.founderEmail,
  startProjectLabel: 'Start Project',
  telegramLabel: 'Telegram',
  whatsappLabel: 'WhatsApp',
  /** The contact page's name: its heading, and the footer's link to it. */
  secureContactLabel: 'Secure Contact',
} as const
