/**
 * Public signing keys and signatures as text (signing.ts makes and checks them): apart, so the
 * build's configuration and the schemas check their form without loading the curve.
 */

/** A public Ed25519 key: 64 lowercase hex characters. */
export const SIGNING_KEY_HEX = /^[0-9a-f]{64}$/
/** An Ed25519 signature: 128 lowercase hex characters. */
export const SIGNATURE_HEX = /^[0-9a-f]{128}$/
