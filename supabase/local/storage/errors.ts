import { asPgError } from '../database'
import { JSON_UTF8 } from '../rest/errors'

/**
 * Supabase Storage's answers when something is refused (supabase/storage src/internal/errors,
 * src/http/error-handler.ts, read at 4fa61fb): a body `{statusCode, code, error, message}` whose
 * statusCode is the real one as a string, on HTTP 400 for every 4xx (a 5xx keeps its own); the
 * TUS routes answer the real status with the message as a plain-text body. Database errors map as
 * Storage maps them (src/storage/database/errors.ts): 42501 is AccessDenied (403, the policy's
 * message kept unless it names row-level security), 23505 is a duplicate (409), 57014 (a statement
 * timeout, anon's 3 s) is DatabaseTimeout on HTTP 544.
 */
export class StorageError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly error: string,
    message: string,
  ) {
    super(message)
    this.name = 'StorageError'
  }

  /** The HTTP answer of the object routes. */
  response(headers: Record<string, string> = {}): Response {
    const body = {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.error,
      message: this.message,
    }
    return new Response(JSON.stringify(body), {
      status: this.statusCode >= 500 ? this.statusCode : 400,
      headers: { 'Content-Type': JSON_UTF8, ...headers },
    })
  }
}

export const STORAGE_ERRORS = {
  accessDenied: (message = 'Access denied') =>
    new StorageError(403, 'AccessDenied', 'Unauthorized', message),
  duplicate: () =>
    new StorageError(409, 'KeyAlreadyExists', 'Duplicate', 'The resource already exists'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'not_found', 'Object not found'),
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  invalidJwt: (message = 'Invalid JWT') =>
    new StorageError(400, 'InvalidJWT', 'InvalidJWT', message),
  invalidKey: (key: string) =>
    new StorageError(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${key}`),
  invalidRequest: (message: string) =>
    new StorageError(400, 'InvalidRequest', 'InvalidRequest', message),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      'invalid_mime_type',
      `mime type ${mimeType} is not supported`,
    ),
  entityTooLarge: () =>
    new StorageError(
      413,
      'EntityTooLarge',
      'Payload too large',
      'The object exceeded the maximum allowed size',
    ),
  internal: () => new StorageError(500, 'InternalError', 'Internal', 'Internal Server Error'),
  databaseTimeout: () =>
    new StorageError(
      544,
      'DatabaseTimeout',
      'DatabaseTimeout',
      'The connection to the database timed out',
    ),
}

/** A database error as Storage reports it; anything else is rethrown. */
export function storageErrorFrom(error: unknown): StorageError {
  if (error instanceof StorageError) return error
  const pgError = asPgError(error)
  if (!pgError) throw error
  if (pgError.code === '42501') {
    return STORAGE_ERRORS.accessDenied(
      pgError.message.includes('row-level security')
        ? 'new row violates row-level security policy'
        : pgError.message,
    )
  }
  if (pgError.code === '23505') return STORAGE_ERRORS.duplicate()
  if (pgError.code === '57014') return STORAGE_ERRORS.databaseTimeout()
  return new StorageError(
    500,
    'DatabaseError',
    'DatabaseError',
    `database error, code: ${pgError.code}`,
  )
}

/**
 * Storage's check of a MIME type against a bucket's list (validateMimeType in
 * src/storage/uploader.ts): `type/subtype`, or `type/*` in the list.
 */
export function checkMimeType(mimeType: string, allowed: string[] | null): void {
  if (!allowed || allowed.length === 0) return
  const [type, subtype] = mimeType.split(';')[0]?.trim().split('/') ?? []
  if (!type || !subtype) throw STORAGE_ERRORS.invalidMimeType(mimeType)
  const ok = allowed.some((entry) => {
    const [allowedType, allowedSubtype] = entry.split('/')
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype)
  })
  if (!ok) throw STORAGE_ERRORS.invalidMimeType(mimeType)
}
