import {describe, expect, it} from 'vitest'
import {assertTokenForm, isTokenForm, maskToken} from '../../../src/core/auth/token.js'
import {UsageError} from '../../../src/core/errors.js'

describe('token form', () => {
  it.each(['svc_x', 'svc_abcDEF123_-', `svc_${'a'.repeat(200)}`])('accepts %j', (token) => {
    expect(isTokenForm(token)).toBe(true)
    expect(assertTokenForm(token, 'AMCTL_TOKEN')).toBe(token)
  })

  it.each(['svc_', 'svc', '', 'pat_abc', 'SVC_abc', ' svc_abc', 'svc_abc ', 'svc_a b', 'svc_a\tb', 'svc_abc\n', 'xsvc_abc'])(
    'refuses %j with exit 2 naming the source',
    (token) => {
      expect(isTokenForm(token)).toBe(false)
      try {
        assertTokenForm(token, 'the token read from stdin')
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError)
        expect((error as UsageError).exitCode).toBe(2)
        expect((error as Error).message).toMatch(/^the token read from stdin is not a valid token/)
        // the message never echoes the secret
        if (token.length > 5) expect((error as Error).message).not.toContain(token.trim())
      }
    },
  )
})

describe('maskToken', () => {
  it('shows svc_… and the last 4 characters only', () => {
    expect(maskToken('svc_abcdefghijkl1234')).toBe('svc_…1234')
    expect(maskToken('svc_abcdefghijkl1234')).not.toContain('abcdefghijkl')
  })

  it('shows none of a token too short to hide most of it', () => {
    expect(maskToken('svc_ab')).toBe('svc_…')
    expect(maskToken('svc_abcdefghijk')).toBe('svc_…')
    expect(maskToken('svc_abcdefghijkl')).toBe('svc_…ijkl')
  })
})
