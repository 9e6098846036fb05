import {describe, expect, it} from 'vitest'
import {usageError} from '../helpers/failure.js'
import {checkApiPath, fieldsAsQuery, fillOrg, normalizeApiPath, parseHeaders, parseMethod, usesOrg} from '../../src/input/api-args.js'

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

describe('checkApiPath', () => {
  it.each(['/orgs/../me', '/a/./b', '/a/%2e%2e/b', '/a/%2E', '/orgs/x\\..\\me', '/orgs/x/..\\me', '/a\\%2e%2e'])(
    'refuses %j',
    async (path) => {
      expect(await usageError(() => checkApiPath(path))).toMatch(/^PATH must not hold a "\.\.?" segment/)
    },
  )

  it.each(['/orgs/x/.\t./me', '/orgs/x/.\n./me', '/me\r', '/a\u0000b', '/a\u009bb', '/a\u007f'])(
    'refuses the control character in %j',
    async (path) => {
      expect(await usageError(() => checkApiPath(path))).toMatch(/^PATH must not hold control characters \(U\+00[0-9A-F]{2}\), got "/)
    },
  )

  it.each(['/orgs/x/..#f', '/me#x', '/runs?q=a#b'])('refuses the fragment in %j', async (path) => {
    expect(await usageError(() => checkApiPath(path))).toMatch(
      /^PATH must not hold "#" \(what follows would never be sent\); write it as %23/,
    )
  })

  it('allows dots inside segments, in the query, and malformed encodings', async () => {
    for (const path of ['/files/a.b', '/x?next=../y', '/a/%zz', '/a/...', '/a/%23b']) expect(() => checkApiPath(path)).not.toThrow()
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

  it.each([
    ['X-A: v\r', 'X-A'],
    ['X-A: v\n', 'X-A'],
    ['X-A: \r\nv', 'X-A'],
    ['X-A: a\u009bb', 'X-A'],
    ['X-A: a\u007f', 'X-A'],
    ['X-A: a\u0085', 'X-A'],
  ])('a CR, LF, DEL or C1 control anywhere in the value exits 2, even at its ends: %j', async (line, name) => {
    expect(await usageError(() => parseHeaders([line]))).toMatch(
      new RegExp(`^-H ${name}: the value must not hold CR, LF or other control characters`),
    )
  })

  it.each(['\nX-B: v', 'X-B\r: v', '\u0085X-B: v'])('a control character around the name exits 2: %j', async (line) => {
    expect(await usageError(() => parseHeaders([line]))).toMatch(/^-H expects 'Name: value'/)
  })

  it.each([
    'Content-Length: 5',
    'transfer-encoding: chunked',
    'Host: evil.example',
    'Connection: close',
    ' CONTENT-LENGTH :0',
    'Keep-Alive: 5',
    'Upgrade: h2c',
    'TE: trailers',
    'Trailer: X',
  ])('%j frames the request: exit 2 naming it', async (line) => {
    const name = line.split(':')[0].trim()
    expect(await usageError(() => parseHeaders([line]))).toBe(
      `-H ${name}: amctl sets the headers that frame the request itself (Content-Length, Transfer-Encoding, Host, Connection, Keep-Alive, Upgrade, TE, Trailer)`,
    )
  })

  it('spaces and tabs around the name and the value are dropped; a tab inside the value is kept', async () => {
    expect({...parseHeaders([' X-A \t:\t a\tb \t'])}).toEqual({'x-a': 'a\tb'})
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
