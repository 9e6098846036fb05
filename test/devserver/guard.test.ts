import {request} from 'node:http'
import {describe, expect, it} from 'vitest'
import {DEVICE_CODE_PARAM} from '../../src/contract/vocabulary.js'
import {startDevServer} from '../../src/devserver/index.js'
import {REDACTED} from '../../src/devserver/request-log.js'
import {expectError, useSeededServer, type Answer} from './helpers.js'
import {systemClock} from '../../src/core/clock.js'

const f = useSeededServer()

/** A request with exactly these headers (fetch does not let a caller choose Host). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const {hostname, port} = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({host: hostname, port, method, path, headers, setHost: false}, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      res.on('end', () => {
        const isJson = (res.headers['content-type'] ?? '').startsWith('application/json')
        const headers = new Headers(res.headers as Record<string, string>)
        resolve({status: res.statusCode ?? 0, headers, text, body: isJson ? JSON.parse(text) : undefined})
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

const hostOf = (url: string) => new URL(url).host
const portOf = (url: string) => new URL(url).port

describe('the Host header (DNS rebinding)', () => {
  it('is answered when it names the listening address, or localhost with its port', async () => {
    for (const host of [hostOf(f.server.url), `localhost:${portOf(f.server.url)}`, `LOCALHOST:${portOf(f.server.url)}`]) {
      expect((await send(f.server.url, 'GET', '/api/v1/openapi.json', {host})).status, host).toBe(200)
    }
  })

  it.each([
    ['a name that resolves here through rebinding', (port: string) => `evil.example:${port}`],
    ['another port', () => '127.0.0.1:1'],
    ['no port', () => '127.0.0.1'],
    ['a name below localhost', (port: string) => `a.localhost.evil.example:${port}`],
    ['garbage', () => 'a b'],
  ])('is refused with 403 and the envelope for %s, on the API, the hooks and the device page', async (_, host) => {
    for (const path of ['/api/v1/openapi.json', '/_dev/orgs/acme', '/device']) {
      const answer = await send(f.server.url, 'GET', path, {host: host(portOf(f.server.url))})
      expect(expectError(answer, 403, 'forbidden'), path).toContain(`use ${f.server.url}`)
    }
  })

  it('is refused when absent (Node answers an HTTP/1.1 request without Host with 400 itself)', async () => {
    const answer = await send(f.server.url, 'POST', '/_dev/tokens', {'content-type': 'application/json'}, '{"email":"ada@example.com"}')
    expect(answer.status).toBe(400)
    expect(answer.text).not.toContain('svc_')
  })

  it('a rebound page cannot mint a token: nothing is done, and nothing is logged', async () => {
    await f.server.call('DELETE', '/_dev/requests')
    const host = `evil.example:${portOf(f.server.url)}`
    const headers = {host, origin: `http://${host}`, 'content-type': 'application/json'}
    const minted = await send(f.server.url, 'POST', '/_dev/tokens', headers, '{"email":"ada@example.com"}')
    expect(minted.text).not.toContain('svc_')
    expectError(minted, 403, 'forbidden')
    expectError(await send(f.server.url, 'GET', '/api/v1/me', {host, authorization: `Bearer ${f.ada}`}), 403, 'forbidden')
    expect((await f.server.call('GET', '/_dev/requests')).body.items).toEqual([])
  })

  it('listening on every address: IP literals with the port are answered, names other than localhost are not', async () => {
    const server = await startDevServer({now: systemClock.wall, port: 0, host: '0.0.0.0', seed: 'empty'})
    try {
      expect((await send(server.url, 'GET', '/api/v1/openapi.json', {host: `127.0.0.1:${server.port}`})).status).toBe(200)
      expect((await send(server.url, 'GET', '/api/v1/openapi.json', {host: `10.1.2.3:${server.port}`})).status).toBe(200)
      expect((await send(server.url, 'GET', '/api/v1/openapi.json', {host: `localhost:${server.port}`})).status).toBe(200)
      expectError(await send(server.url, 'GET', '/api/v1/openapi.json', {host: `myhost.example:${server.port}`}), 403, 'forbidden')
    } finally {
      await server.close()
    }
  })
})

describe('the /_dev/ hooks refuse web pages', () => {
  const own = () => ({host: hostOf(f.server.url), 'content-type': 'application/json'})

  it('answer without an Origin (curl, scripts) and with their own', async () => {
    expect((await send(f.server.url, 'POST', '/_dev/tokens', own(), '{"email":"ada@example.com"}')).status).toBe(200)
    const same = await send(f.server.url, 'POST', '/_dev/tokens', {...own(), origin: f.server.url}, '{"email":"ada@example.com"}')
    expect(same.status).toBe(200)
  })

  it.each(['http://evil.example', 'null', 'https://127.0.0.1:1'])('refuse Origin %s with 403', async (origin) => {
    const answer = await send(f.server.url, 'POST', '/_dev/tokens', {...own(), origin}, '{"email":"ada@example.com"}')
    expect(expectError(answer, 403, 'forbidden')).toContain('other origins')
    expect(answer.text).not.toContain('svc_')
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined])(
    'refuse a body sent as %s with 415',
    async (type) => {
      const headers: Record<string, string> = {host: hostOf(f.server.url)}
      if (type !== undefined) headers['content-type'] = type
      const answer = await send(f.server.url, 'POST', '/_dev/tokens', headers, '{"email":"ada@example.com"}')
      expect(expectError(answer, 415, 'invalid_request')).toContain('Content-Type: application/json')
      expect(answer.text).not.toContain('svc_')
    },
  )

  it('take application/json with parameters, and bodiless requests without a type', async () => {
    const headers = {...own(), 'content-type': 'Application/JSON; charset=utf-8'}
    const answer = await send(f.server.url, 'POST', '/_dev/tokens', headers, '{"email":"ada@example.com"}')
    expect(answer.status).toBe(200)
    expect((await send(f.server.url, 'DELETE', '/_dev/faults', {host: hostOf(f.server.url)})).status).toBe(200)
  })
})

describe('the device code is a credential', () => {
  it('is redacted in the request log, however its name is encoded', async () => {
    await f.server.call('DELETE', '/_dev/requests')
    const start = await f.server.api('POST', '/cli/token', {body: {}})
    const code = start.body.deviceCode as string
    await f.server.api('POST', `/cli/token?${DEVICE_CODE_PARAM}=${code}&x=1`, {body: {}})
    await f.server.api('POST', `/cli/token?device%43ode=${code}`, {body: {}, unchecked: true})
    const log = await f.server.call('GET', '/_dev/requests')
    expect(log.text).not.toContain(code)
    expect(log.body.items.map((entry: {path: string}) => entry.path)).toEqual([
      '/api/v1/cli/token',
      `/api/v1/cli/token?${DEVICE_CODE_PARAM}=${REDACTED}&x=1`,
      `/api/v1/cli/token?device%43ode=${REDACTED}`,
    ])
  })

  it('is redacted in the log lines of --verbose', async () => {
    const lines: string[] = []
    const server = await startDevServer({now: systemClock.wall, port: 0, seed: 'empty', log: (line) => lines.push(line)})
    let code = ''
    try {
      code = ((await (await fetch(`${server.url}/api/v1/cli/token`, {method: 'POST'})).json()) as {deviceCode: string}).deviceCode
      await fetch(`${server.url}/api/v1/cli/token?${DEVICE_CODE_PARAM}=${code}`, {method: 'POST'})
    } finally {
      await server.close()
    }
    expect(code.length).toBeGreaterThan(10)
    expect(lines.join('\n')).toContain(`POST /api/v1/cli/token?${DEVICE_CODE_PARAM}=${REDACTED} 200`)
    expect(lines.join('\n')).not.toContain(code)
  })
})
