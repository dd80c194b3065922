// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { storageErrorFrom } from './errors'

describe('a database error, as Storage answers it', () => {
  it('a statement timeout (57014) is DatabaseTimeout on HTTP 544, as real Storage answers', async () => {
    const answer = storageErrorFrom({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    }).response()
    expect(answer.status).toBe(544)
    expect(await answer.json()).toEqual({
      statusCode: '544',
      code: 'DatabaseTimeout',
      error: 'DatabaseTimeout',
      message: 'The connection to the database timed out',
    })
  })

  it('a refusal answers HTTP 400 with the real status in the body; another error stays a 500', async () => {
    const denied = storageErrorFrom({ code: '42501', message: 'Too many files.' }).response()
    expect(denied.status).toBe(400)
    expect(await denied.json()).toMatchObject({ statusCode: '403', message: 'Too many files.' })
    const other = storageErrorFrom({ code: 'XX000', message: 'internal' }).response()
    expect(other.status).toBe(500)
    expect(await other.json()).toMatchObject({ statusCode: '500', code: 'DatabaseError' })
  })
})
