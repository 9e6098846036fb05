import {describe, expect, it} from 'vitest'
import {UsageError} from '../../../src/core/errors.js'
import {routePath, segment, withQuery} from '../../../src/core/http/path.js'

describe('segment / routePath (contract 3: every ID is exactly one path segment)', () => {
  it.each([
    ['a/b', 'a%2Fb'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['100%', '100%25'],
    ['a b', 'a%20b'],
    ['café', 'caf%C3%A9'],
    ['日本', '%E6%97%A5%E6%9C%AC'],
    ['../x', '..%2Fx'],
    ['a\\b', 'a%5Cb'],
    ['run_123-abc', 'run_123-abc'],
  ])('encodes %j as %j', (raw, encoded) => {
    expect(segment(raw)).toBe(encoded)
  })

  it('keeps an ID with / or ? inside one segment of the route', () => {
    const path = routePath('forkRun', {runId: 'r?admin=1#x/../y'})
    expect(path).toBe('/runs/r%3Fadmin%3D1%23x%2F..%2Fy/fork')
    const url = new URL(`https://api.test/api/v1${path}`)
    expect(url.pathname).toBe('/api/v1/runs/r%3Fadmin%3D1%23x%2F..%2Fy/fork')
    expect(url.search).toBe('')
    expect(url.hash).toBe('')
    expect(routePath('getVariantContent', {org: 'acme/x', experimentId: 'e 1', variantId: 'v%'})).toBe(
      '/orgs/acme%2Fx/experiments/e%201/variants/v%25/content',
    )
  })

  it.each(['.', '..', '', 'a\u0000b', 'tab\there', 'esc\u001b[2J', 'c1\u009b'])('refuses %j with a usage error (exit 2)', (value) => {
    expect(() => segment(value)).toThrow(UsageError)
    expect(() => routePath('listRuns', {org: value})).toThrow(/^org /)
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
