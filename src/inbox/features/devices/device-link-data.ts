import type { DeviceLinkTaken } from '../../../shared/database-types'
import { supabase } from '../../lib/supabase-client'

// Only a one-time public key, the linking code's words and age ciphertext pass here.

function failed(what: string, error: unknown): null {
  console.error(`inbox: ${what} failed`, error)
  return null
}

export async function openLink(recipient: string, code: string): Promise<string | null> {
  const fingerprint = code.replaceAll(' ', '-')
  const { data, error } = await supabase.rpc('device_link_open', { recipient, fingerprint })
  return error || !data ? failed('opening a device link', error) : data
}

export async function takeLink(id: string): Promise<DeviceLinkTaken | null> {
  const { data, error } = await supabase.rpc('device_link_take', { link_id: id })
  return error || !data ? failed('reading the device link', error) : data
}

export async function cancelLink(id: string): Promise<void> {
  const { error } = await supabase.rpc('device_link_cancel', { link_id: id })
  if (error) failed('cancelling the device link', error)
}

/** '' for none; null when not answered. */
export async function recipientFor(fingerprint: string): Promise<string | null> {
  const { data, error } = await supabase.rpc('device_link_recipient', { fingerprint })
  return error ? failed('finding the device link', error) : (data ?? '')
}

export async function sealLink(fingerprint: string, recipient: string, sealed: string) {
  const { data, error } = await supabase.rpc('device_link_seal', { fingerprint, recipient, sealed })
  if (error) return failed('storing the sealed key set', error) ?? 'failed'
  return data === true ? 'sealed' : 'gone'
}
