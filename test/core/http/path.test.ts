import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/core/errors.js'
import {apiPath, segment, withQuery} from '../../../src/core/http/path.js'

describe('segment / apiPath', () => {
  it.each([
    ['a/b', 'a%2Fb'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['100%', '100%25'],
    ['a b', 'a%20b'],
    ['café', 'caf%C3%A9'],
    ['日本', '%E6%97%A5%E6%9C%AC'],
    ['../x', '..%2Fx'],
    ['run_123-abc', 'run_123-abc'],
  ])('encodes %j as %j', (raw, encoded) => {
    expect(segment(raw)).toBe(encoded)
  })

  it('keeps an ID with / or ? inside one segment of the route', () => {
    const path = apiPath`/orgs/${'acme/../other'}/runs/${'r?admin=1#x'}/fork`
    expect(path).toBe('/orgs/acme%2F..%2Fother/runs/r%3Fadmin%3D1%23x/fork')
    const url = new URL(`https://api.test/api/v1${path}`)
    expect(url.pathname).toBe('/api/v1/orgs/acme%2F..%2Fother/runs/r%3Fadmin%3D1%23x/fork')
    expect(url.search).toBe('')
    expect(url.hash).toBe('')
  })

  it.each(['.', '..', ''])('refuses %j as a segment with a usage error (exit 2)', (value) => {
    expect(() => segment(value)).toThrow(UsageError)
    expect(() => apiPath`/orgs/${value}/runs`).toThrow(/cannot be used as a path segment/)
    try {
      segment(value)
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(2)
    }
  })
})

describe('withQuery', () => {
  it('adds only the defined values, encoded, in order', () => {
    expect(withQuery('/runs', {limit: 50, cursor: 'a b&c'})).toBe('/runs?limit=50&cursor=a+b%26c')
    expect(withQuery('/runs', {limit: undefined, cursor: null})).toBe('/runs')
    expect(withQuery('/runs?x=1', {cursor: 'c'})).toBe('/runs?x=1&cursor=c')
  })
})
