import {describe, expect, it} from 'vitest'
import Api from '../../src/commands/api.js'
import {runCommand} from '../helpers/cli.js'
import {envelope, json, ME, unchecked, useFakeApi} from '../helpers/fake-api.js'
import {roundAndRound} from '../helpers/pages.js'

/** `amctl api` sends to any path: its answers, documented or not, are whatever a server says. */
const ANY_PATH = 'amctl api reaches any path and prints what comes back'

const api = useFakeApi({
  'GET /orgs/acme/summary': {runs: 3},
  'POST /orgs/acme/things': unchecked(ANY_PATH, 200, {created: true}),
  'PATCH /orgs/acme/eval-sets/es_1': {id: 'es_1', name: 'Checkout', cadence: 'DAILY', samplesPerTarget: 5, connectionIds: []},
})

describe('api', () => {
  it('GET by default; PATH relative to /api/v1, a leading /api/v1 accepted, query kept', async () => {
    await runCommand(Api, ['/me'], {env: api.env()})
    await runCommand(Api, ['/api/v1/me?x=1'], {env: api.env()})
    await runCommand(Api, ['me'], {env: api.env()})
    expect(api.requests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/me', 'GET /api/v1/me?x=1', 'GET /api/v1/me'])
  })

  it('prints JSON compact when piped and pretty on a TTY', async () => {
    const piped = await runCommand(Api, ['/me'], {env: api.env()})
    expect(piped.stdout).toBe(`${JSON.stringify(ME)}\n`)
    const tty = await runCommand(Api, ['/me'], {env: api.env(), tty: true})
    expect(tty.stdout).toBe(`${JSON.stringify(ME, null, 2)}\n`)
  })

  it.each([[{kind: 'stream', note: 'a server member named kind'}], [{kind: 'finished', exitCode: 3}], [{kind: 'unknown-outcome'}]])(
    'an answer with a member named kind is data: printed as it came, exit 0 (%j)',
    async (answer) => {
      api.stub('GET /orgs/acme/things', unchecked(ANY_PATH, 200, answer))
      for (const tty of [false, true]) {
        const r = await runCommand(Api, ['/orgs/acme/things'], {env: api.env(), tty})
        expect(r.exitCode, r.stderr).toBe(0)
        expect(JSON.parse(r.stdout)).toEqual(answer)
        expect(r.stderr).toBe('')
      }
      const json = await runCommand(Api, ['/orgs/acme/things', '--json'], {env: api.env()})
      expect(json.exitCode, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toEqual(answer)
    },
  )

  it('replaces {org} with the resolved org (from GET /me here)', async () => {
    await runCommand(Api, ['/orgs/{org}/summary'], {env: api.env()})
    expect(api.requests().map((r) => r.path)).toEqual(['/api/v1/me', '/api/v1/orgs/acme/summary'])
  })

  it('a body makes it a POST; -X chooses; -H adds headers', async () => {
    await runCommand(Api, ['/orgs/acme/things', '-F', 'n=1', '-H', 'X-Trace: abc'], {env: api.env()})
    await runCommand(Api, ['/orgs/acme/eval-sets/es_1', '-X', 'patch', '-F', 'samplesPerTarget=5'], {env: api.env()})
    const [post, patch] = api.requests()
    expect([post.method, json(post), post.headers['x-trace']]).toEqual(['POST', {n: 1}, 'abc'])
    expect([patch.method, json(patch)]).toEqual(['PATCH', {samplesPerTarget: 5}])
  })

  it('prints a non-JSON body as text', async () => {
    api.stub('GET /openapi.yaml', () => {
      return unchecked(ANY_PATH, 200, 'openapi: 3.1.0', {'content-type': 'text/yaml'})
    })
    const r = await runCommand(Api, ['/openapi.yaml'], {env: api.env()})
    expect(r.stdout).toBe('openapi: 3.1.0\n')
  })

  it('a body labelled JSON that is not JSON is bad_response (exit 1), not printed as if fine', async () => {
    api.stub('GET /broken', () => {
      return unchecked(ANY_PATH, 200, '{"half": ', {'content-type': 'application/json'})
    })
    const r = await runCommand(Api, ['/broken'], {env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: the response says it is JSON but is not valid JSON .*\(bad_response\)\n$/)
  })

  it('--paginate merges the items of every page into one document', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      return unchecked(ANY_PATH, 200, cursor ? {items: [{id: 3}]} : {items: [{id: 1}, {id: 2}], nextCursor: 'n'})
    })
    const r = await runCommand(Api, ['/orgs/acme/runs?limit=2', '--paginate'], {env: api.env()})
    expect(JSON.parse(r.stdout)).toEqual({items: [{id: 1}, {id: 2}, {id: 3}]})
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs?limit=2', '/api/v1/orgs/acme/runs?limit=2&cursor=n'])
  })

  it("--paginate: a 404 on a later page names that page; the server's message stays unchanged under --json", async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      return cursor ? envelope(404, 'not_found', 'Cursor n has expired') : unchecked(ANY_PATH, 200, {items: [{id: 1}], nextCursor: 'n'})
    })
    const r = await runCommand(Api, ['/orgs/acme/runs', '--paginate'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe('error: page 2 (cursor n) of GET /orgs/acme/runs not found: Cursor n has expired (not_found, HTTP 404)\n')
    const json = await runCommand(Api, ['/orgs/acme/runs', '--paginate', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout).error).toEqual({
      code: 'not_found',
      message: 'Cursor n has expired',
      status: 404,
      context: 'page 2 (cursor n) of GET /orgs/acme/runs not found',
    })
  })

  it('--paginate on a list that comes round again with new cursors ends with bad_response naming the cursor; the document is closed', async () => {
    const list = roundAndRound(Array.from({length: 5}, (_, i) => ({id: `x${i}`})))
    api.stub('GET /things', (req) => unchecked(ANY_PATH, 200, list(new URL(req.path, 'http://x'))))
    const r = await runCommand(Api, ['/things?limit=2', '--paginate'], {env: api.env()})
    expect(r.exitCode).toBe(1)
    // x0 x1, x2 x3, x4 x0, x1 x2: nothing new
    expect(JSON.parse(r.stdout)).toEqual({
      items: ['x0', 'x1', 'x2', 'x3', 'x4', 'x0'].map((id) => ({id})),
      error: {
        code: 'bad_response',
        message:
          'page 4 (cursor "w6") of GET /things holds only items already listed: the list comes round again; stopping instead of looping forever',
      },
    })
  })

  it('flags may come before PATH, and -H takes one value per occurrence (contract 1.1)', async () => {
    const r = await runCommand(Api, ['-H', 'X-A: 1', '-H', 'X-B: 2', '/me'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    const [me] = api.requests()
    expect([me.path, me.headers['x-a'], me.headers['x-b']]).toEqual(['/api/v1/me', '1', '2'])
  })

  it('-X GET sends -F/-f fields as query parameters: typed values as JSON text, strings as they are', async () => {
    api.stub('GET /orgs/acme/runs', {items: []})
    const r = await runCommand(
      Api,
      ['-X', 'GET', '/orgs/acme/runs?x=0', '-F', 'limit=2', '-F', 'all=true', '-F', 'ids=[1,"a"]', '-f', 'cursor=a b&c'],
      {env: api.env()},
    )
    expect(r.exitCode).toBe(0)
    const [req] = api.requests()
    expect(req.method).toBe('GET')
    expect(req.body).toBe('')
    expect(req.path).toBe('/api/v1/orgs/acme/runs?x=0&limit=2&all=true&ids=%5B1%2C%22a%22%5D&cursor=a+b%26c')
  })

  it('-i prints the status line and the headers, an empty line, then the body; --silent prints no body', async () => {
    const r = await runCommand(Api, ['/me', '-i'], {env: api.env()})
    const [status, ...rest] = r.stdout.split('\n')
    expect(status).toBe('HTTP/1.1 200 OK')
    const blank = rest.indexOf('')
    expect(rest.slice(0, blank)).toContain('Content-Type: application/json')
    expect(rest.slice(blank + 1).join('\n')).toBe(`${JSON.stringify(ME)}\n`)
    const silent = await runCommand(Api, ['/me', '--silent'], {env: api.env()})
    expect([silent.exitCode, silent.stdout, silent.stderr]).toEqual([0, '', ''])
    const both = await runCommand(Api, ['/me', '--silent', '-i'], {env: api.env()})
    expect(both.stdout).toMatch(/^HTTP\/1\.1 200 OK\n[\s\S]*\n\n$/)
  })

  it('-i on a failed request, like gh api -i: the status line, headers and body on stdout, then the error and its exit code', async () => {
    api.stub('GET /orgs/acme/nothing', envelope(404, 'not_found', 'no route GET /nothing'))
    const r = await runCommand(Api, ['/orgs/acme/nothing', '-i'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    const [status, ...rest] = r.stdout.split('\n')
    expect(status).toBe('HTTP/1.1 404 Not Found')
    const blank = rest.indexOf('')
    expect(rest.slice(0, blank)).toContain('Content-Type: application/json')
    expect(JSON.parse(rest.slice(blank + 1).join('\n'))).toEqual({error: {code: 'not_found', message: 'no route GET /nothing'}})
    expect(r.stderr).toBe('error: no route GET /nothing (not_found, HTTP 404)\n')
    // without -i, nothing on stdout; with --silent, the headers without the body
    api.stub('GET /orgs/acme/nothing', envelope(404, 'not_found', 'no route GET /nothing'))
    expect((await runCommand(Api, ['/orgs/acme/nothing'], {env: api.env()})).stdout).toBe('')
    api.stub('GET /orgs/acme/nothing', envelope(404, 'not_found', 'no route GET /nothing'))
    expect((await runCommand(Api, ['/orgs/acme/nothing', '-i', '--silent'], {env: api.env()})).stdout).toMatch(
      /^HTTP\/1\.1 404 Not Found\n[\s\S]*\n\n$/,
    )
  })

  it('a text body on a terminal is terminal-safe; piped it is written as it came', async () => {
    api.stub('GET /motd', () => {
      return unchecked(ANY_PATH, 200, 'hello\u001b]0;pwned\u0007\nworld\u001b[2J\n', {'content-type': 'text/plain'})
    })
    const tty = await runCommand(Api, ['/motd'], {env: api.env(), tty: true})
    expect(tty.stdout).toBe('hello\\u001b]0;pwned\\u0007\nworld\\u001b[2J\n')
    const piped = await runCommand(Api, ['/motd'], {env: api.env()})
    expect(piped.stdout).toBe('hello\u001b]0;pwned\u0007\nworld\u001b[2J\n')
  })

  it.each([
    [['/me', '-X', 'TRACE'], '-X must be one of GET, POST, PUT, PATCH, DELETE'],
    [['https://evil.example/api/v1/me'], 'PATH is relative to /api/v1'],
    [['/me', '-H', 'no colon'], "-H expects 'Name: value'"],
    [['/me', '-H', 'X-A: 1\r\nX-Injected: 2'], '-H X-A: the value must not hold CR, LF or other control characters'],
    [['/me', '-H', 'X-A: a\nb'], '-H X-A: the value must not hold CR, LF'],
    [['/orgs/acme/things', '-f', 'a=b', '-H', 'Content-Length: 5'], '-H Content-Length: amctl sets the headers that frame the request'],
    [['/me', '-H', 'Transfer-Encoding: chunked'], '-H Transfer-Encoding: amctl sets the headers that frame the request'],
    [['/me', '-H', 'Host: evil.example'], '-H Host: amctl sets the headers that frame the request'],
    [['/me', '-H', 'Connection: close'], '-H Connection: amctl sets the headers that frame the request'],
    [['/me', '-X', 'POST', '--paginate'], '--paginate works with GET only'],
    [['/me', '-X', 'GET', '--input', '-'], '--input sends a body, which a GET does not have'],
    [['/orgs/acme/../globex/summary'], 'PATH must not hold a ".." segment'],
    [['/orgs/acme/%2e%2e/globex/summary'], 'PATH must not hold a ".." segment'],
    [['/orgs/acme/%2E/summary'], 'PATH must not hold a "." segment'],
    [['/me', '--timeout', '0.0004'], '--timeout must be a number of seconds from 0.001'],
  ])('%j exits 2 with no request', async (args, message) => {
    const r = await runCommand(Api, args, {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(message)
    expect(api.requests()).toHaveLength(0)
  })

  it('errors follow the exit-code table', async () => {
    api.stub('GET /nowhere', envelope(404, 'not_found', 'no route GET /nowhere'))
    const r = await runCommand(Api, ['/nowhere'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe('error: no route GET /nowhere (not_found, HTTP 404)\n')
  })
})

describe('api: typed result and renderer', () => {
  it('returns the answer; JSON goes to the renderer as a value, text as a block', async () => {
    const json = await runCommand(Api, ['/orgs/acme/summary'], {env: api.env()})
    expect(json.result).toEqual({runs: 3})
    expect(json.rendered).toEqual([{method: 'json', value: {runs: 3}}])
    api.stub('GET /motd', unchecked(ANY_PATH, 200, 'hello\n', {'content-type': 'text/plain'}))
    const text = await runCommand(Api, ['/motd'], {env: api.env()})
    expect(text.result).toBe('hello\n')
    expect(text.rendered).toEqual([{method: 'block', value: 'hello\n'}])
  })
})
