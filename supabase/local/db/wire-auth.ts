import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Socket } from 'node:net'

/**
 * PostgreSQL's own password authentication (SCRAM-SHA-256, RFC 5802/7677, as `pg_hba.conf`'s
 * `scram-sha-256` runs it) in front of the embedded database's wire port, which pglite-socket
 * would otherwise open to any user name and password. The secrets are PostgreSQL's: each role's
 * SCRAM verifier in `pg_authid.rolpassword`, made by PGlite itself on `ALTER ROLE … PASSWORD`, so
 * no password is ever kept here. Refusals are PostgreSQL's FATAL errors and codes: 28P01 for a
 * wrong password, an unknown role or one without a password (after a mock exchange, as PostgreSQL
 * does, so a client cannot tell which), 28000 for a role without LOGIN, 3D000 for another
 * database. Only the server side of SCRAM is here (an HMAC and a hash per login); libraries that
 * offer it (pg-gateway) want to own the whole connection, which pglite-socket already does.
 */

export type LoginRole = { canLogin: boolean; verifier: string | null }

export type WireAuthOptions = {
  /** The one database PGlite serves. */
  database: string
  lookup(user: string): Promise<LoginRole | null>
}

/** A client that proved its password: its role, and the bytes to hand to the database as they came. */
export type Authenticated = { user: string; startup: Buffer; rest: Buffer }

const PROTOCOL_3_0 = 196608
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
/** PostgreSQL's MAX_STARTUP_PACKET_LENGTH. */
const MAX_STARTUP_LENGTH = 10_000
const MAX_SASL_LENGTH = 4_096
/** PostgreSQL's authentication_timeout is 60 s; a local client answers at once. */
const AUTHENTICATION_TIMEOUT_MS = 10_000
const MOCK_SECRET = randomBytes(32)

class Refused extends Error {
  constructor(
    readonly sqlstate: string,
    message: string,
  ) {
    super(message)
  }
}

/** A PostgreSQL FATAL ErrorResponse, then the connection is closed (as the server closes it). */
export function fatal(sqlstate: string, message: string): Buffer {
  const fields = ['SFATAL', 'VFATAL', `C${sqlstate}`, `M${message}`]
  const body = Buffer.concat([
    ...fields.map((field) => Buffer.from(`${field}\0`)),
    Buffer.from([0]),
  ])
  const header = Buffer.alloc(5)
  header.write('E')
  header.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([header, body])
}

function authentication(code: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(9)
  header.write('R')
  header.writeInt32BE(8 + data.length, 1)
  header.writeInt32BE(code, 5)
  return Buffer.concat([header, data])
}

/** Reads whole messages from a socket until `release`, which hands back what came after them. */
function messageReader(socket: Socket) {
  let buffer = Buffer.alloc(0)
  let closed = false
  let wake: (() => void) | null = null
  const onData = (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    wake?.()
  }
  const onClose = () => {
    closed = true
    wake?.()
  }
  socket.on('data', onData)
  socket.on('end', onClose)
  socket.on('close', onClose)
  socket.on('error', onClose)

  async function take(length: number): Promise<Buffer> {
    while (buffer.length < length) {
      if (closed) throw new Error('the client went away')
      await new Promise<void>((resolve) => (wake = resolve))
      wake = null
    }
    const taken = buffer.subarray(0, length)
    buffer = buffer.subarray(length)
    return taken
  }

  return {
    async startup() {
      const head = await take(8)
      const length = head.readInt32BE(0)
      if (length < 8 || length > MAX_STARTUP_LENGTH)
        throw new Refused('08P01', 'invalid length of startup packet')
      const body = await take(length - 8)
      return { raw: Buffer.concat([head, body]), code: head.readInt32BE(4), body }
    },
    /** The body of the next message, which must be a SASL response ('p'). */
    async saslResponse(): Promise<Buffer> {
      const head = await take(5)
      const length = head.readInt32BE(1)
      if (head[0] !== 'p'.charCodeAt(0))
        throw new Refused('08P01', `expected SASL response, got message type ${head[0]}`)
      if (length < 4 || length > MAX_SASL_LENGTH)
        throw new Refused('08P01', 'invalid message length')
      return take(length - 4)
    },
    release(): Buffer {
      socket.off('data', onData)
      socket.off('end', onClose)
      socket.off('close', onClose)
      socket.off('error', onClose)
      return buffer
    },
  }
}

function startupParameters(body: Buffer): Record<string, string> {
  const parts = body.toString('utf8').split('\0')
  const parameters: Record<string, string> = {}
  for (let index = 0; index + 1 < parts.length && parts[index] !== ''; index += 2)
    parameters[parts[index] as string] = parts[index + 1] as string
  return parameters
}

type Verifier = { iterations: number; salt: Buffer; storedKey: Buffer; serverKey: Buffer }

/** `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, as pg_authid keeps it. */
function parseVerifier(text: string | null | undefined): Verifier | null {
  const match = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(text ?? '')
  if (!match) return null
  const [, iterations, salt, storedKey, serverKey] = match as unknown as string[]
  return {
    iterations: Number(iterations),
    salt: Buffer.from(salt as string, 'base64'),
    storedKey: Buffer.from(storedKey as string, 'base64'),
    serverKey: Buffer.from(serverKey as string, 'base64'),
  }
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest()
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest()

/**
 * One SCRAM-SHA-256 exchange. Without a verifier it runs to the end with a salt made up from the
 * user name (the same each time, as PostgreSQL's mock authentication), and fails.
 */
async function scram(
  socket: Socket,
  reader: ReturnType<typeof messageReader>,
  user: string,
  verifier: Verifier | null,
): Promise<boolean> {
  socket.write(authentication(10, Buffer.from('SCRAM-SHA-256\0\0')))
  const initial = await reader.saslResponse()
  const end = initial.indexOf(0)
  if (
    end < 0 ||
    initial.subarray(0, end).toString() !== 'SCRAM-SHA-256' ||
    end + 5 > initial.length
  )
    throw new Refused('28000', 'client selected an invalid SASL authentication mechanism')
  const clientFirst = initial.subarray(end + 5, end + 5 + initial.readInt32BE(end + 1)).toString()
  // No channel binding: the port has no TLS. 'y' is a client that could bind but saw no -PLUS.
  const first = /^([ny]),(a=[^,]*)?,(n=[^,]*,r=([^,]+)(,.*)?)$/.exec(clientFirst)
  if (!first) throw new Refused('08P01', 'malformed SCRAM message')
  const gs2Header = `${first[1]},${first[2] ?? ''},`
  const clientFirstBare = first[3] as string
  const nonce = `${first[4]}${randomBytes(18).toString('base64')}`
  const salt = verifier?.salt ?? hmac(MOCK_SECRET, user).subarray(0, 16)
  const serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${verifier?.iterations ?? 4096}`
  socket.write(authentication(11, Buffer.from(serverFirst)))

  const clientFinal = (await reader.saslResponse()).toString()
  const final = /^(c=([^,]*),r=([^,]*)(?:,[^,]*)*),p=([^,]+)$/.exec(clientFinal)
  if (!final) throw new Refused('08P01', 'malformed SCRAM message')
  const [, withoutProof, binding, finalNonce, proof] = final as unknown as string[]
  if (finalNonce !== nonce)
    throw new Refused('08P01', 'invalid SCRAM response (nonce does not match)')
  if (binding !== Buffer.from(gs2Header).toString('base64'))
    throw new Refused('08P01', 'SCRAM channel binding check failed')
  if (!verifier) return false

  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`
  const clientProof = Buffer.from(proof as string, 'base64')
  const clientSignature = hmac(verifier.storedKey, authMessage)
  if (clientProof.length !== clientSignature.length) return false
  const clientKey = Buffer.from(
    clientProof.map((byte, index) => byte ^ (clientSignature[index] ?? 0)),
  )
  if (!timingSafeEqual(sha256(clientKey), verifier.storedKey)) return false
  const serverSignature = hmac(verifier.serverKey, authMessage).toString('base64')
  socket.write(authentication(12, Buffer.from(`v=${serverSignature}`)))
  return true
}

/**
 * Authenticates a new wire connection. Resolves with the role and the bytes to pass on (the
 * startup packet, for the database's own AuthenticationOk and parameters, then anything the
 * client sent after it), or null once the client has been refused and its connection closed.
 */
export async function authenticate(
  socket: Socket,
  options: WireAuthOptions,
): Promise<Authenticated | null> {
  socket.setTimeout(AUTHENTICATION_TIMEOUT_MS, () => socket.destroy())
  const reader = messageReader(socket)
  try {
    let startup = await reader.startup()
    while (startup.code === SSL_REQUEST || startup.code === GSSENC_REQUEST) {
      socket.write('N')
      startup = await reader.startup()
    }
    // PGlite cannot cancel a running statement; PostgreSQL answers a cancel by closing too.
    if (startup.code === CANCEL_REQUEST) {
      socket.end()
      return null
    }
    if (startup.code !== PROTOCOL_3_0)
      throw new Refused(
        '0A000',
        `unsupported frontend protocol ${startup.code >> 16}.${startup.code & 0xffff}: server supports 3.0 to 3.0`,
      )
    const parameters = startupParameters(startup.body)
    const user = parameters.user ?? ''
    if (!user) throw new Refused('28000', 'no PostgreSQL user name specified in startup packet')
    const role = await options.lookup(user)
    // As PostgreSQL: the password first, then whether the role may log in, then the database.
    if (!(await scram(socket, reader, user, parseVerifier(role?.verifier))) || !role)
      throw new Refused('28P01', `password authentication failed for user "${user}"`)
    if (!role.canLogin) throw new Refused('28000', `role "${user}" is not permitted to log in`)
    const database = parameters.database || user
    if (database !== options.database)
      throw new Refused('3D000', `database "${database}" does not exist`)
    socket.setTimeout(0)
    return { user, startup: startup.raw, rest: reader.release() }
  } catch (error) {
    reader.release()
    if (error instanceof Refused) socket.end(fatal(error.sqlstate, error.message))
    else socket.destroy()
    return null
  }
}
