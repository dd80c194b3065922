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
})
