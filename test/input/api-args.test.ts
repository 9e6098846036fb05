import {describe, expect, it} from 'vitest'
import {usageError} from '../helpers/failure.js'
import {
  assertNoDotSegments,
  fieldsAsQuery,
  fillOrg,
  normalizeApiPath,
  parseHeaders,
  parseMethod,
  usesOrg,
} from '../../src/input/api-args.js'

// The arguments of `amctl api` (contract 3), checked before anything is sent.
describe('normalizeApiPath', () => {
  it.each([
    ['/me', '/me'],
    ['me', '/me'],
    [' /me ', '/me'],
    ['/api/v1/me?x=1', '/me?x=1'],
    ['/api/v1', '/'],
    ['/api/v1?x=1', '/?x=1'],
    ['/api/v10/x', '/api/v10/x'],
  ])('%j → %j', async (input, path) => {
    expect(normalizeApiPath(input)).toBe(path)
  })

  it('refuses an empty path and a full URL (the server is --base-url)', async () => {
    expect(await usageError(() => normalizeApiPath('  '))).toBe('PATH must not be empty; e.g. /me or /orgs/{org}/runs')
    expect(await usageError(() => normalizeApiPath('https://evil.example/x'))).toMatch(
      /^PATH is relative to \/api\/v1 on the configured server, got a full URL/,
    )
  })
})

describe('assertNoDotSegments', () => {
  it.each(['/orgs/../me', '/a/./b', '/a/%2e%2e/b', '/a/%2E'])('refuses %j', async (path) => {
    expect(await usageError(() => assertNoDotSegments(path))).toMatch(/^PATH must not hold a "\.\.?" segment/)
  })

  it('allows dots inside segments, in the query, and malformed encodings', async () => {
    for (const path of ['/files/a.b', '/x?next=../y', '/a/%zz', '/a/...']) expect(() => assertNoDotSegments(path)).not.toThrow()
  })
})

describe('{org}', () => {
  it('is found and replaced everywhere, encoded as a path segment', async () => {
    expect(usesOrg('/orgs/{org}/runs')).toBe(true)
    expect(usesOrg('/me')).toBe(false)
    expect(fillOrg('/orgs/{org}/x?org={org}', 'acme')).toBe('/orgs/acme/x?org=acme')
    expect(fillOrg('/orgs/{org}', 'a b')).toBe('/orgs/a%20b')
  })
})

describe('parseMethod', () => {
  it('GET without a body, POST with one; -X in any case', async () => {
    expect(parseMethod(undefined, false)).toBe('GET')
    expect(parseMethod(undefined, true)).toBe('POST')
    expect(parseMethod(' patch ', true)).toBe('PATCH')
  })

  it('refuses another method', async () => {
    expect(await usageError(() => parseMethod('TRACE', false))).toBe('-X must be one of GET, POST, PUT, PATCH, DELETE, got "TRACE"')
  })
})

describe('parseHeaders', () => {
  it('lower-cases names, trims values, later ones win', async () => {
    expect({...parseHeaders(['X-Trace: abc', 'Accept:  text/plain ', 'x-trace: def'])}).toEqual({'x-trace': 'def', accept: 'text/plain'})
  })

  it('a name that is no HTTP token, or a value with CR/LF/controls, exits 2', async () => {
    expect(await usageError(() => parseHeaders(['no colon']))).toBe(`-H expects 'Name: value', got "no colon"`)
    expect(await usageError(() => parseHeaders(['Bad Name: x']))).toMatch(/^-H expects 'Name: value'/)
    expect(await usageError(() => parseHeaders(['X-A: a\r\nInjected: 1']))).toMatch(
      /^-H X-A: the value must not hold CR, LF or other control characters/,
    )
  })

  it('a member name like __proto__ is an ordinary header', async () => {
    expect(Object.entries(parseHeaders(['__proto__: x']))).toEqual([['__proto__', 'x']])
  })
})

describe('fieldsAsQuery (GET with -F/-f)', () => {
  it('appends typed values as JSON text and strings as they are', async () => {
    expect(fieldsAsQuery('/runs', [])).toBe('/runs')
    expect(
      fieldsAsQuery('/runs?limit=5', [
        ['status', 'queued'],
        ['n', 2],
        ['tags', ['a', 'b']],
      ]),
    ).toBe('/runs?limit=5&status=queued&n=2&tags=%5B%22a%22%2C%22b%22%5D')
  })
})
