import {describe, expect, it} from 'vitest'
import {useE2E} from '../helpers.js'
import {API, direct, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

// amctl api: the escape hatch. Paths, {org}, methods, bodies, --paginate, retired routes.

const e2e = useE2E()

describe('amctl api', () => {
  it('GET /me (also written with a leading /api/v1): the body as JSON, compact when piped; no org resolved', async () => {
    const [[r, prefixed], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['api', '/me']),
      () => e2e.current.amctl(['api', 'api/v1/me', '--json']),
    ])
    expectOk(r)
    expect(reqs).toEqual([`GET ${API}/me`, `GET ${API}/me`])
    const me = jsonDoc(r)
    expect(me).toEqual({
      id: 'usr_ada',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      orgs: [
        {slug: 'acme', publicId: 'org_01J9ACME0000000000000000', name: 'Acme Corp'},
        {slug: 'globex', publicId: 'org_01J9GLOBEX00000000000000', name: 'Globex Corporation'},
      ],
    })
    expectOk(prefixed)
    expect(jsonDoc(prefixed)).toEqual(me)
  })

  it('{org} is filled (by public ID too) and the query string is kept', async () => {
    // grace: {org} resolves to her only org through GET /me
    const [[r, g], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['api', '/orgs/{org}/runs?limit=2', '--org', 'org_01J9GLOBEX00000000000000']),
      () => e2e.current.amctl(['api', '/orgs/{org}/summary'], {as: 'grace'}),
    ])
    expectOk(r)
    expect(reqs).toEqual(
      sorted([`GET ${API}/orgs/org_01J9GLOBEX00000000000000/runs?limit=2`, `GET ${API}/me`, `GET ${API}/orgs/globex/summary`]),
    )
    const doc = jsonDoc(r)
    expect(doc.items.map((run: {id: string}) => run.id)).toEqual(['run_globex_0040', 'run_globex_0039'])
    expect(typeof doc.nextCursor).toBe('string')
    expectOk(g)
    expect(jsonDoc(g).org.slug).toBe('globex')
  })

  it('-X PATCH with -F/-f: typed fields; the change is stored', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl([
        'api',
        '-X',
        'PATCH',
        '/orgs/{org}/eval-sets/es_acme_search',
        '--org',
        'acme',
        '-F',
        'samplesPerTarget=7',
        '-F',
        'tagIds=["tag_acme_nightly"]',
        '-f',
        'name=42',
      ]),
    )
    expectOk(r)
    expect(reqs).toEqual([`PATCH ${API}/orgs/acme/eval-sets/es_acme_search`])
    expect(jsonDoc(r)).toMatchObject({samplesPerTarget: 7, tagIds: ['tag_acme_nightly'], name: '42', cadence: 'NONE'})
    const {body} = await direct(e2e.current, 'PATCH', `${API}/orgs/acme/eval-sets/es_acme_search`, 'ada', {})
    expect(body).toMatchObject({samplesPerTarget: 7, name: '42'})
  })

  it('a body without -X means POST; -H adds a header', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['api', '/orgs/acme/optimizations/opt_acme_checkout/chat', '-f', 'message=hello', '-H', 'X-Trace: e2e']),
    )
    expectOk(r)
    expect(reqs).toEqual([`POST ${API}/orgs/acme/optimizations/opt_acme_checkout/chat`])
    expect(jsonDoc(r).messages[0]).toMatchObject({role: 'user', content: 'hello'})
  })

  it('--paginate follows nextCursor and prints one {"items":[…]} with every page', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['api', '/orgs/{org}/runs?limit=15', '--paginate'], {as: 'grace'}),
    )
    expectOk(r)
    const doc = jsonDoc(r)
    expect(Object.keys(doc)).toEqual(['items'])
    const ids = doc.items.map((run: {id: string}) => run.id)
    expect(ids).toHaveLength(40)
    expect(new Set(ids).size).toBe(40)
    expect(ids[0]).toBe('run_globex_0040')
    expect(ids.at(-1)).toBe('run_globex_0001')
    expect(reqs).toHaveLength(4) // GET /me, then 3 pages of 15
    expect(reqs[1]).toBe(`GET ${API}/orgs/globex/runs?limit=15`)
    expect(reqs[2]).toMatch(new RegExp(`^GET ${API}/orgs/globex/runs\\?limit=15&cursor=[\\w-]+$`))
  })

  it('--paginate failing midway: the document is closed with the error; without --json the message is on stderr too', async () => {
    const fail = async () => {
      await e2e.current.fault({match: {method: 'GET', path: '/orgs/globex/runs$'}, count: 1, actions: [{type: 'latency', ms: 1}]})
      await e2e.current.fault({
        match: {method: 'GET', path: '/orgs/globex/runs$'},
        count: 1,
        actions: [{type: 'status', status: 500, message: 'storage hiccup'}],
      })
    }
    try {
      await fail()
      const human = await e2e.current.amctl(['api', '/orgs/globex/runs?limit=15', '--paginate'])
      expect(human.exitCode).toBe(1)
      const doc = jsonDoc(human)
      expect(doc.items).toHaveLength(15)
      expect(doc.error).toMatchObject({message: 'storage hiccup', status: 500})
      expect(lines(human.stderr)).toEqual([expect.stringMatching(/^error: storage hiccup \(\w+, HTTP 500\)$/)])

      await fail()
      const json = await e2e.current.amctl(['api', '/orgs/globex/runs?limit=15', '--paginate', '--json'])
      expect(json.exitCode).toBe(1)
      expect(json.stderr).toBe('')
      const again = jsonDoc(json)
      expect(again.items).toEqual(doc.items)
      expect(again.error).toMatchObject({message: 'storage hiccup', status: 500})
    } finally {
      await e2e.current.clearFaults()
    }
  })

  it('a response that is not JSON is printed as text', async () => {
    await e2e.current.fault({
      match: {method: 'GET', path: '/me$'},
      count: 1,
      actions: [{type: 'status', status: 200, body: 'plain text, no newline', contentType: 'text/plain'}],
    })
    const r = await e2e.current.amctl(['api', '/me'])
    expectOk(r)
    expect(r.stdout).toBe('plain text, no newline\n')
  })

  it('local usage errors: exit 2, nothing sent', async () => {
    const cases: Array<[string[], string | RegExp]> = [
      [['/orgs/acme/runs', '--paginate', '-X', 'POST'], '--paginate works with GET only, not POST'],
      [['/me', '-X', 'TRACE'], '-X must be one of GET, POST, PUT, PATCH, DELETE, got "TRACE"'],
      [['/me', '-H', 'no colon here'], `-H expects 'Name: value', got "no colon here"`],
      [['https://evil.example/api/v1/me'], /^PATH is relative to \/api\/v1 on the configured server/],
      [['/orgs/acme/tags/x', '-X', 'DELETE', '--input', '-'], /^--input \(stdin\) is empty/],
    ]
    const [results, reqs] = await requestsOfAll(
      e2e.current,
      cases.map(
        ([argv]) =>
          () =>
            e2e.current.amctl(['api', ...argv]),
      ),
    )
    cases.forEach(([argv, message], i) => {
      const said = expectError(results[i], 2, 'invalid_request')
      if (typeof message === 'string') expect(said, argv.join(' ')).toBe(message)
      else expect(said, argv.join(' ')).toMatch(message)
    })
    expect(reqs).toEqual([])
  })

  it.each(['/orgs/acme/presets', '/orgs/{org}/cycles/cyc_1', '/orgs/acme/scenarios', '/schedules/sch_1'])(
    "retired route %s: 403, exit 4, the server's upgrade message verbatim",
    async (path) => {
      const concrete = path.replace('{org}', 'acme')
      const {status, body} = await direct(e2e.current, 'GET', `${API}${concrete}`)
      expect(status).toBe(403)
      const upgrade: string = body.error.message
      expect(upgrade).toMatch(/retired in API 0\.14/)

      // any method is retired; --json carries the same message
      const json = path.includes('cycles')
      const argv = json ? ['api', '-X', 'POST', path, '--org', 'acme', '-F', 'name=nightly', '--json'] : ['api', path, '--org', 'acme']
      const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
      if (json) expect(expectJsonError(r, 4, 'forbidden', 403).message).toBe(upgrade)
      else expect(expectError(r, 4, 'forbidden', 403)).toBe(upgrade)
      expect(reqs).toEqual([`${json ? 'POST' : 'GET'} ${API}${concrete}`]) // a 403 is not retried
    },
  )

  it('a 404 from any path: exit 5; a 400 from the server: exit 2', async () => {
    const [[missing, invalid]] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['api', '/orgs/acme/nothing-here']),
      () => e2e.current.amctl(['api', '/orgs/acme/runs?limit=0', '--json']),
    ])
    expect(expectError(missing, 5, 'not_found', 404)).toContain('/api/v1/orgs/acme/nothing-here')
    expect(expectJsonError(invalid, 2, 'invalid_request', 400).message).toContain('limit')
  })
})
