import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {sendWithNodeHttp} from '../../src/core/http/node-http.js'
import {useNock} from './nock.js'

// The nock harness's own contract: what it records, and what its verification (gh's
// httpmock.Verify) reports; useNock turns a non-empty report into a failed test. And where it
// may be loaded: nock patches the process's node:http and costs ~90 ms to load, so only the
// tests of the network path import it, never the setup files or a helper every file loads.

const net = useNock()
const get = (url: string) => sendWithNodeHttp(new URL(url), {url, method: 'GET', headers: {}, body: undefined, timeoutMs: 5000})

describe('useNock', () => {
  it('records what an interceptor answered, and reports nothing when every interceptor was used', async () => {
    net.origin('https://api.test').get('/a').reply(200, 'ok')
    expect(await get('https://api.test/a')).toMatchObject({status: 200, text: 'ok'})
    expect(net.sent()).toEqual([{method: 'GET', url: 'https://api.test/a', headers: expect.objectContaining({host: 'api.test'}), body: ''}])
    expect(net.verify()).toEqual([])
    expect(net.sent()).toEqual([])
  })

  it('reports a request no interceptor matched, on a known host (nock answers 501) or another (refused)', async () => {
    net.origin('https://api.test').get('/a').reply(200, 'ok')
    expect(await get('https://api.test/b')).toMatchObject({status: 501})
    await expect(get('https://other.test/c')).rejects.toMatchObject({name: 'NetConnectNotAllowedError'})
    await get('https://api.test/a')
    expect(net.verify()).toEqual(['no interceptor matched GET https://api.test/b', 'no interceptor matched GET https://other.test/c'])
  })

  it('reports an interceptor no request used, and clears it', async () => {
    net.origin('https://api.test').get('/a').reply(200, 'ok').post('/b').reply(201)
    await get('https://api.test/a')
    expect(net.verify()).toEqual(['no request used POST https://api.test:443/b'])
    expect(net.verify()).toEqual([])
  })
})

describe('where nock is loaded', () => {
  const root = join(import.meta.dirname, '..', '..')
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : /\.(?:ts|mjs|cjs|js)$/.test(entry.name) ? [join(dir, entry.name)] : [],
    )
  const importing = (pattern: RegExp) =>
    walk('test')
      .filter((file) => pattern.test(readFileSync(join(root, file), 'utf8')))
      .sort()

  it('only test/helpers/nock.ts imports nock, and only the tests of src/core/http/ (and its own) import that', () => {
    expect(importing(/^import\b[^\n]*from 'nock'|\bimport\('nock'\)/m)).toEqual(['test/helpers/nock.ts'])
    const users = importing(/helpers\/nock\.js'|from '\.\/nock\.js'/)
    expect(users).toContain('test/helpers/nock.test.ts')
    expect(users.filter((file) => !file.startsWith('test/core/http/') && file !== 'test/helpers/nock.test.ts')).toEqual([])
  })
})
