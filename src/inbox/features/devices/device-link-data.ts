import type { DeviceLinkTaken } from '../../../shared/database-types'
import { supabase } from '../../lib/supabase-client'

/**
 * The link's row, through the database's functions for staff at aal2. Only a one-time public key,
 * the linking code's words and age ciphertext pass here; the server's words go to the console.
 */

export class DeviceLinkError extends Error {
  constructor(readonly what: string) {
    super(what)
    this.name = 'DeviceLinkError'
  }
}

function failed(what: string, error: unknown): never {
  console.error(`inbox: ${what} failed`, error)
  throw new DeviceLinkError(what)
}

const fingerprintOfCode = (code: string) => code.replaceAll(' ', '-')

/** The new device: a link for its one-time recipient; the row's id. */
export async function openLink(recipient: string, code: string): Promise<string> {
  const { data, error } = await supabase.rpc('device_link_open', {
    recipient,
    fingerprint: fingerprintOfCode(code),
  })
  if (error || !data) failed('opening a device link', error)
  return data
}

/** The new device, waiting: the sealed key set once, or whether to keep waiting. */
export async function takeLink(id: string): Promise<DeviceLinkTaken> {
  const { data, error } = await supabase.rpc('device_link_take', { link_id: id })
  if (error || !data) failed('reading the device link', error)
  return data
}

export async function cancelLink(id: string): Promise<void> {
  const { error } = await supabase.rpc('device_link_cancel', { link_id: id })
  if (error) console.error('inbox: cancelling the device link failed', error)
}

/** The unlocked device: the one-time recipient the typed code names, or null. */
export async function recipientFor(fingerprint: string): Promise<string | null> {
  const { data, error } = await supabase.rpc('device_link_recipient', { fingerprint })
  if (error) failed('finding the device link', error)
  return data
}

/** The unlocked device: stores the sealed key set; false when the link is no longer waiting. */
export async function sealLink(fingerprint: string, recipient: string, sealed: string) {
  const { data, error } = await supabase.rpc('device_link_seal', { fingerprint, recipient, sealed })
  if (error) failed('storing the sealed key set', error)
  return data === true
}
