import { describe, expect, it } from 'vitest'
import { downloadRefused } from './storage'

describe('a refused download', () => {
  it('reads the real status Storage puts in the body of its HTTP 400', () => {
    expect(downloadRefused({ status: 400, statusCode: '404', message: 'Object not found' })).toBe(
      'not-found',
    )
    expect(downloadRefused({ status: 400, statusCode: '403', message: 'denied' })).toBe('failed')
  })

  it('takes the HTTP status without one, and no answer as offline', () => {
    expect(downloadRefused({ status: 404 })).toBe('not-found')
    expect(downloadRefused({ message: 'Failed to fetch' })).toBe('offline')
    expect(downloadRefused(null)).toBe('offline')
    expect(downloadRefused({ status: 500 })).toBe('failed')
  })

  it('says busy, not failed or offline, when the database timed out behind Storage', () => {
    expect(
      downloadRefused({
        status: 544,
        statusCode: '544',
        message: 'The connection to the database timed out',
      }),
    ).toBe('busy')
    expect(
      downloadRefused({ status: 500, message: 'canceling statement due to statement timeout' }),
    ).toBe('busy')
    expect(
      downloadRefused({ status: 500, statusCode: '500', message: 'database error, code: 57014' }),
    ).toBe('busy')
    expect(downloadRefused({ status: 429, message: 'Too many requests' })).toBe('busy')
  })
})
