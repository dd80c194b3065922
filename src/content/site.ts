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
} as const
