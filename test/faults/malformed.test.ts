import type {ServerResponse} from 'node:http'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runInProcess} from '../e2e/helpers.js'
import {type BinResult, freshConfigDir, runBin} from '../helpers/bin.js'
import {startServer, type TestServer} from '../helpers/http-server.js'
import {figures} from './figures.js'
import {expectOneErrorLine, lines, round, STACK_FRAME} from './helpers.js'

// Responses the dev server never sends, from a purpose-built node:http server: each must end in
// one line on stderr and exit 1 (or the code its HTTP status maps to), never a crash (a stack
// trace, "unexpected failure") or a hang. The matrix runs the commands in this process on a fake
// clock (runInProcess: a 502 is retried without waiting for the back-off); the built CLI runs a
// sample of it at the end.

const fig = figures('malformed')
const FORTY_MB = 40 * 1024 * 1024
const BIG = Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(FORTY_MB, 'x'), Buffer.from('"}')])

type Answer = (res: ServerResponse) => void
const plain =
  (status: number, contentType: string | undefined, body: string | Buffer): Answer =>
  (res) => {
    res.writeHead(status, contentType === undefined ? {} : {'content-type': contentType})
    res.end(body)
  }

interface Case {
  name: string
  answer: Answer
  /** exit code for each command kind; absent = the command is not tried with this answer */
  object?: number
  /** `runs list` (one page) and `runs list --all` (streamed rows) */
  list?: number
  post?: number
  /** `runs list --all --json`; default: as `list` (items are passed through as the API sent them) */
  allJson?: number | null
  /** also try `runs list --all` (rows): for what the page walk or the row renderer treat on their own */
  rows?: boolean
  /** the error line must match this */
  says: RegExp
}

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
const BAD = /\(bad_response(, HTTP \d{3})?\)$/

const CASES: Case[] = [
  {
    name: 'an HTML 502 page from a proxy',
    answer: plain(502, 'text/html', HTML_502),
    object: 1,
    list: 1,
    post: 1,
    rows: true,
    says: /HTTP 502 with a body that is not the error envelope: <html> .*502 Bad Gateway.* \(bad_response, HTTP 502\)$/,
  },
  {
    name: 'an HTML 404 page (no envelope: the status decides)',
    answer: plain(404, 'text/html', '<h1>Not Found</h1>'),
    object: 5,
    list: 5,
    post: 5,
    says: /HTTP 404 .*\(bad_response, HTTP 404\)$/,
  },
  {
    name: 'truncated JSON',
    answer: plain(200, 'application/json', '{"items":[{"id":"run_1","status":"succ'),
    object: 1,
    list: 1,
    post: 1,
    rows: true,
    says: /not valid JSON.*\(bad_response\)$/,
  },
  {
    name: 'an empty body with 200',
    answer: plain(200, 'application/json', ''),
    object: 1,
    list: 1,
    post: 1,
    says: /empty body.*\(bad_response\)$/,
  },
  {name: 'an empty body with 200 and no content type', answer: plain(200, undefined, ''), object: 1, list: 1, post: 1, says: BAD},
  {
    name: 'a JSON array',
    answer: plain(200, 'application/json', '[1,2,3]'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON object, got an array.*\(bad_response\)$/,
  },
  {
    name: 'a JSON string',
    answer: plain(200, 'application/json', '"ok"'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON object.*\(bad_response\)$/,
  },
  {
    name: 'JSON null',
    answer: plain(200, 'application/json', 'null'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON object, got null.*\(bad_response\)$/,
  },
  {
    name: 'a JSON number',
    answer: plain(200, 'application/json', '42'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON object.*\(bad_response\)$/,
  },
  {
    name: 'a 40 MB body (with Content-Length)',
    answer: plain(200, 'application/json', BIG),
    object: 1,
    list: 1,
    post: 1,
    rows: true,
    says: /larger than 32 MiB.*\(bad_response\)$/,
  },
  {
    name: 'a 40 MB body (chunked, no length)',
    answer: (res) => {
      res.writeHead(200, {'content-type': 'application/json'})
      for (let off = 0; off < BIG.length; off += 1024 * 1024) res.write(BIG.subarray(off, off + 1024 * 1024))
      res.end()
    },
    object: 1,
    list: 1,
    post: 1,
    says: /larger than 32 MiB.*\(bad_response\)$/,
  },
  {
    name: 'JSON sent as text/plain',
    answer: plain(200, 'text/plain', '{"items":[]}'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON response, got text\/plain.*\(bad_response\)$/,
  },
  {
    name: 'JSON sent as text/html',
    answer: plain(200, 'text/html; charset=utf-8', '{"items":[]}'),
    object: 1,
    list: 1,
    post: 1,
    says: /expected a JSON response, got text\/html.*\(bad_response\)$/,
  },
  {
    name: 'an error envelope with the wrong types',
    answer: plain(400, 'application/json', '{"error":{"code":7,"message":["x"]}}'),
    object: 2,
    list: 2,
    post: 2,
    says: /not the error envelope.*\(bad_response, HTTP 400\)$/,
  },
  {
    name: 'a 500 with a 1 MB one-line text body',
    answer: plain(500, 'text/plain', 'E'.repeat(1024 * 1024)),
    object: 1,
    list: 1,
    post: 1,
    says: /\(bad_response, HTTP 500\)$/,
  },
  // list pages: an object, but not a page
  {
    name: 'a list page without "items"',
    answer: plain(200, 'application/json', '{"data":[]}'),
    list: 1,
    rows: true,
    says: /items.*\(bad_response\)$/,
  },
  {
    name: 'a list page whose "items" is not an array',
    answer: plain(200, 'application/json', '{"items":"none"}'),
    list: 1,
    rows: true,
    says: /items.*\(bad_response\)$/,
  },
  {
    name: 'a list page with null and non-object items',
    answer: plain(200, 'application/json', '{"items":[null,5,"x"]}'),
    list: 1,
    allJson: null,
    rows: true,
    says: /item.*\(bad_response\)$/,
  },
]

const COMMANDS = {
  object: ['orgs', 'summary', '--org', 'acme'],
  list: ['runs', 'list', '--org', 'acme'],
  listAll: ['runs', 'list', '--org', 'acme', '--all'],
  post: ['evals', 'run', 'es_1', '--org', 'acme'],
} as const
type Kind = keyof typeof COMMANDS

let server: TestServer
let current: Answer = plain(200, 'application/json', '{}')
beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.on('error', () => {}) // the client may hang up mid-body (the 40 MB cases)
    current(res)
  })
})
afterAll(() => server.close())

const env = () => ({AMCTL_BASE_URL: server.url, AMCTL_TOKEN: 'svc_malformed_responses_01', AMCTL_CONFIG_DIR: freshConfigDir()})
const amctl = (argv: readonly string[]): Promise<BinResult> => runInProcess([...argv], env())
const built = (argv: readonly string[]): Promise<BinResult> => runBin([...argv], {env: env(), timeoutMs: 60_000})

const tried = {answers: CASES.length + 1, cases: 0, crashes: 0, hangs: 0, slowestMs: 0}
const record = (r: BinResult): void => {
  tried.cases += 1
  if (STACK_FRAME.test(r.stderr) || r.stderr.includes('unexpected failure')) tried.crashes += 1
  if (r.signal !== null) tried.hangs += 1
  tried.slowestMs = Math.max(tried.slowestMs, round(r.ms))
  fig.set('responses', {...tried})
}

const exitFor = (c: Case, kind: Kind): number | undefined => (kind === 'listAll' ? (c.rows ? c.list : undefined) : c[kind])
const rows = CASES.flatMap((c) =>
  (Object.keys(COMMANDS) as Kind[]).filter((kind) => exitFor(c, kind) !== undefined).map((kind) => ({...c, kind, exit: exitFor(c, kind)!})),
)

describe('a malformed response ends in one error line, never a crash or a hang', () => {
  it.each(rows)('$name → $kind command exits $exit', async ({answer, kind, exit, says}) => {
    current = answer
    const r = await amctl(COMMANDS[kind])
    record(r)
    const line = expectOneErrorLine(r, exit)
    expect(line).toMatch(says)
    expect(line.length).toBeLessThan(600) // the body is quoted, not dumped
  })

  it.each(CASES.filter((c) => c.list !== undefined && c.allJson !== null))(
    '$name → runs list --all --json prints the error document (nothing was listed yet)',
    async ({answer, list}) => {
      current = answer
      const r = await amctl([...COMMANDS.list, '--all', '--json'])
      record(r)
      expect(r.signal).toBeNull()
      expect(r.stderr).toBe('')
      const doc = JSON.parse(r.stdout)
      // the first page is the bad one: no items were written, so the error is the only document
      expect(doc).toEqual({error: expect.objectContaining({code: 'bad_response'})})
      expect(r.exitCode).toBe(list)
    },
  )

  it('a body cut off mid-way (Content-Length not reached): GET exits 1, POST exits 9 (it was sent)', async () => {
    current = (res) => {
      res.writeHead(200, {'content-type': 'application/json', 'content-length': '500'})
      res.write('{"items":[{"id":"run_1"', () => res.socket?.destroy())
    }
    const get = await amctl(COMMANDS.object)
    record(get)
    expectOneErrorLine(get, 1)
    const post = await amctl(COMMANDS.post)
    record(post)
    expect(post.signal).toBeNull()
    expect(post.stderr).not.toMatch(STACK_FRAME)
    expect(lines(post.stderr).filter((line) => line.startsWith('error: '))).toHaveLength(1)
    expect(post.stderr).toContain('the server may have accepted the request; check before retrying (outcome_unknown)')
    expect(post.exitCode).toBe(9)
  })
})

describe('the built CLI on a sample of the matrix', () => {
  // the same code bundled: each kind of command once, on answers that are not retried
  const SAMPLE = CASES.filter((c) => ['truncated JSON', 'a JSON array', 'a list page with null and non-object items'].includes(c.name))

  it.each(
    SAMPLE.flatMap((c) =>
      (Object.keys(COMMANDS) as Kind[])
        .filter((kind) => exitFor(c, kind) !== undefined)
        .map((kind) => ({...c, kind, exit: exitFor(c, kind)!})),
    ),
  )('$name → $kind command exits $exit', async ({answer, kind, exit, says}) => {
    current = answer
    const r = await built(COMMANDS[kind])
    record(r)
    expect(expectOneErrorLine(r, exit)).toMatch(says)
  })
})
