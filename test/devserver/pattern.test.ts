import {describe, expect, it} from 'vitest'
import {ApiError} from '../../src/devserver/errors.js'
import {MAX_PATTERN_LENGTH, compilePattern} from '../../src/devserver/pattern.js'

const matches = (pattern: string, path: string) => compilePattern(pattern, 'match.path')(path)

describe('path patterns of the /_dev/ hooks', () => {
  it.each([
    ['/summary', '/api/v1/orgs/acme/summary', true],
    ['/summary', '/api/v1/orgs/acme/summary/x', true],
    ['/summary$', '/api/v1/orgs/acme/summary/x', false],
    ['^/api/v1/me$', '/api/v1/me', true],
    ['^/api/v1/me$', '/api/v1/meet', false],
    ['^/api/v1/me$', '/x/api/v1/me', false],
    ['^/api/v1/me', '/api/v1/meet', true],
    ['/eval-sets/*/run$', '/api/v1/orgs/acme/eval-sets/es_1/run', true],
    ['/eval-sets/*/run$', '/api/v1/orgs/acme/eval-sets/es_1/runs', false],
    ['^/api/*/orgs/*/runs$', '/api/v1/orgs/acme/runs', true],
    ['^/api/*/orgs/*/runs$', '/api/v1/orgs/acme/run', false],
    ['a*b*c', 'xaxbxcx', true],
    ['a*b*c', 'xcxbxax', false],
    ['^a*a$', 'a', false],
    ['^a*a$', 'aa', true],
    ['/openapi.json', '/api/v1/openapi.json', true],
    ['/openapi.json', '/api/v1/openapiXjson', false],
    ['/runs?limit=2', '/api/v1/orgs/acme/runs?limit=2', true],
    ['', '/anything', true],
  ])('%j on %j: %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected)
  })

  const regexes = ['(a+)+$', '^/runs/\\d+$', '/runs/.*', '/(runs|tags)', '/runs/[0-9]', '/runs{2}', '/a|b']
  it.each(regexes)('refuses the regular expression %j, naming the member', (pattern) => {
    expect(() => compilePattern(pattern, 'match.path')).toThrow(ApiError)
    expect(() => compilePattern(pattern, 'match.path')).toThrow(/^match\.path is a path pattern, not a regular expression/)
  })

  it(`refuses a pattern longer than ${MAX_PATTERN_LENGTH} characters`, () => {
    const tooLong = 'a'.repeat(MAX_PATTERN_LENGTH + 1)
    expect(() => compilePattern(tooLong, 'path')).toThrow(`path must be at most ${MAX_PATTERN_LENGTH} characters`)
    expect(matches('a'.repeat(MAX_PATTERN_LENGTH), 'a'.repeat(MAX_PATTERN_LENGTH))).toBe(true)
  })

  it('cannot run away: a pattern that would make a regular expression backtrack for ages answers at once', () => {
    // as a regular expression, /(a*)*b/ or /a.*a.*a…b/ on 100,000 a's does not finish in a test's lifetime
    const path = 'a'.repeat(100_000)
    expect(matches(`${'a*'.repeat(200)}b`, path)).toBe(false)
    expect(matches(`^${'*a'.repeat(200)}$`, path)).toBe(true)
  })
})
