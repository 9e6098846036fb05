import {writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {EVAL_SETS, EXPERIMENTS, MCP_SERVERS, OPTIMIZATIONS, TAGS, VISIBILITY_PROMPTS} from '../../src/devserver/seed.js'
import {useE2E} from '../e2e/helpers.js'
import {figures} from './figures.js'
import {expectOneErrorLine, lines} from './helpers.js'
import {tempDir} from '../helpers/temp.js'

/**
 * Bad input, found before any request (cli-contract.md 1.5: exit 2, "found locally before any
 * request"). Every row runs the built CLI as a subprocess without a TTY and checks:
 *   - the documented exit code;
 *   - stdout empty, and on stderr exactly one `error: …` line (at most one `hint:` after it)
 *     that names what was wrong (`says`);
 *   - nothing on the wire: the dev server's request log is empty, and a trap proxy
 *     (HTTP_PROXY / HTTPS_PROXY, for any host other than the dev server) saw nothing either.
 */

interface BadInput {
  /** what is wrong, in words */
  what: string
  argv: string[]
  exit: number
  /** the error line names the culprit */
  says: RegExp
  env?: Record<string, string | undefined>
  /** standard input */
  input?: string
}

const dir = tempDir('amctl-bad-input-')
const file = (name: string, content: string): string => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
const BAD_JSON = file('bad.json', '{\n  "name": "x",\n  oops\n}\n')
const ARRAY_JSON = file('array.json', '[1, 2, 3]\n')
const NUMBER_JSON = file('number.json', '42\n')
const EMPTY_JSON = file('empty.json', '')
const MISSING = join(dir, 'missing.json')

const ES = EVAL_SETS.acmeCheckout
const EXP = EXPERIMENTS.acmeOnboarding
const OPT = OPTIMIZATIONS.acmeCheckout
const ORG = ['--org', 'acme']
const update = (...flags: string[]) => ['evals', 'update', ES, ...ORG, ...flags]
const tokens = (...flags: string[]) => ['tokens', 'create', '--name', 'ci', ...flags]

// prettier-ignore
const TABLE: BadInput[] = [
  // evals update: samples, cadence, connections, --set
  {what: 'samples 0', argv: update('--samples', '0'), exit: 2, says: /--samples must be from 1 to 50, got 0/},
  {what: 'samples 51', argv: update('--samples', '51'), exit: 2, says: /--samples must be from 1 to 50, got 51/},
  {what: 'samples 2.5', argv: update('--samples', '2.5'), exit: 2, says: /--samples must be a whole number from 1 to 50, got "2\.5"/},
  {what: 'samples abc', argv: update('--samples', 'abc'), exit: 2, says: /--samples must be a whole number .* got "abc"/},
  {what: 'samples -3', argv: update('--samples', '-3'), exit: 2, says: /--samples must be from 1 to 50, got -3/},
  {what: 'samples empty', argv: update('--samples', ''), exit: 2, says: /--samples must be a whole number .* got ""/},
  {
    what: 'cadence hourly',
    argv: update('--cadence', 'hourly'),
    exit: 2,
    says: /--cadence must be one of NONE, DAILY, WEEKLY, MONTHLY .*got "hourly"/,
  },
  {what: 'cadence empty', argv: update('--cadence', ''), exit: 2, says: /--cadence must be one of .*got ""/},
  {what: 'cadence list', argv: update('--cadence', 'DAILY,WEEKLY'), exit: 2, says: /--cadence .*got "DAILY,WEEKLY"/},
  {what: 'nothing to change', argv: update(), exit: 2, says: /nothing to change: give --cadence, --samples/},
  {
    what: '--connection with --clear-connections',
    argv: update('--connection', 'conn_acme_github', '--clear-connections'),
    exit: 2,
    says: /--connection and --clear-connections contradict/,
  },
  {
    what: '--set of a member with its own flag',
    argv: update('--set', 'cadence="DAILY"'),
    exit: 2,
    says: /--set cadence is not allowed: use --cadence/,
  },
  {
    what: '--set value not JSON',
    argv: update('--set', 'label=nightly'),
    exit: 2,
    says: /--set label: the value is not valid JSON .*line 1, column 1/,
  },
  {what: '--set without a key', argv: update('--set', '=1'), exit: 2, says: /--set expects KEY=JSON, got "=1"/},
  {
    what: '--connection ID with a control character',
    argv: update('--connection', 'conn\u0007x'),
    exit: 2,
    says: /--connection must not contain control characters/,
  },

  // tokens create --expires / --name
  {
    what: 'expires without unit',
    argv: tokens('--expires', '30'),
    exit: 2,
    says: /--expires must be a number of days written as <N>d .*got "30"/,
  },
  {what: 'expires 0d', argv: tokens('--expires', '0d'), exit: 2, says: /--expires must be from 1d to 3650d, got "0d"/},
  {what: 'expires 3651d', argv: tokens('--expires', '3651d'), exit: 2, says: /--expires must be from 1d to 3650d, got "3651d"/},
  {what: 'expires in weeks', argv: tokens('--expires', '1w'), exit: 2, says: /--expires .*got "1w"/},
  {what: 'expires negative', argv: tokens('--expires', '-5d'), exit: 2, says: /--expires .*got "-5d"/},
  {what: 'expires fraction', argv: tokens('--expires', '1.5d'), exit: 2, says: /--expires .*got "1\.5d"/},
  {what: 'token name blank', argv: ['tokens', 'create', '--name', '  ', '--expires', '30d'], exit: 2, says: /--name must not be empty/},
  {what: 'token name missing', argv: ['tokens', 'create', '--expires', '30d'], exit: 2, says: /missing required flag --name\b/},

  // IDs (contract 3): only the empty ID, . and .. and control characters are refused; anything
  // else (/ ? # % spaces, non-ASCII) is sent as one encoded segment (test/commands/runs/fork.test.ts, test/e2e/commands/experiments.test.ts)
  {what: 'empty ID', argv: ['evals', 'run', '', ...ORG], exit: 2, says: /EVAL_SET_ID must not be empty/},
  {what: 'ID with a newline', argv: ['runs', 'fork', 'run\n1'], exit: 2, says: /RUN_ID must not contain control characters/},
  {what: 'ID with an escape sequence', argv: ['runs', 'fork', 'run\u001b[2J'], exit: 2, says: /RUN_ID must not contain control characters/},
  {what: 'ID with DEL', argv: ['runs', 'fork', 'run\u007f'], exit: 2, says: /RUN_ID must not contain control characters/},
  {
    what: 'ID with a C1 control',
    argv: ['experiments', 'launch', 'exp\u009b1', ...ORG],
    exit: 2,
    says: /EXPERIMENT_ID must not contain control characters/,
  },
  {
    what: 'ID with a tab',
    argv: ['optimizations', 'preview', 'opt\tx', ...ORG],
    exit: 2,
    says: /OPTIMIZATION_ID must not contain control characters/,
  },
  {
    what: 'ID with a bell',
    argv: ['evals', 'update', 'es\u0007x', '--samples', '3', ...ORG],
    exit: 2,
    says: /EVAL_SET_ID must not contain control characters/,
  },
  {what: 'ID ..', argv: ['tags', 'delete', '..', '--yes', ...ORG], exit: 2, says: /TAG_ID cannot be "\.\."/},
  {what: 'ID .', argv: ['mcp-servers', 'delete', '.', '--yes', ...ORG], exit: 2, says: /REF cannot be "\."/},
  {what: 'second ID ..', argv: ['experiments', 'variant-content', EXP, '..', ...ORG], exit: 2, says: /VARIANT_ID cannot be "\.\."/},
  {
    what: 'prompt ID .',
    argv: ['scenarios', 'create', '--prompt', '.', '--repository', 'acme/storefront', '--persona', 'sre', ...ORG],
    exit: 2,
    says: /--prompt cannot be "\."/,
  },

  // unknown flags, missing arguments
  {what: 'unknown flag', argv: ['runs', 'list', '--bogus', ...ORG], exit: 2, says: /unknown flag --bogus\b/},
  {what: 'flag of another command', argv: ['evals', 'run', ES, '--samples', '3', ...ORG], exit: 2, says: /unknown flag --samples\b/},
  {what: 'a token as a flag', argv: ['auth', 'login', '--token', 'svc_abcdefgh'], exit: 2, says: /unknown flag --token\b/},
  {what: 'missing EVAL_SET_ID', argv: ['evals', 'run', ...ORG], exit: 2, says: /missing argument EVAL_SET_ID\b/},
  {what: 'missing RUN_ID', argv: ['runs', 'fork'], exit: 2, says: /missing argument RUN_ID\b/},
  {what: 'missing VARIANT_ID', argv: ['experiments', 'variant-content', EXP, ...ORG], exit: 2, says: /missing argument VARIANT_ID\b/},
  {what: 'missing TAG_ID', argv: ['tags', 'delete', '--yes', ...ORG], exit: 2, says: /missing argument TAG_ID\b/},
  {
    what: 'missing --persona',
    argv: ['scenarios', 'create', '--prompt', VISIBILITY_PROMPTS.acmePreference, '--repository', 'acme/storefront', ...ORG],
    exit: 2,
    says: /missing required flag --persona\b/,
  },
  {what: 'missing --message', argv: ['optimizations', 'chat', OPT, ...ORG], exit: 2, says: /missing required flag --message\b/},
  {what: 'empty --message', argv: ['optimizations', 'chat', OPT, '--message', '', ...ORG], exit: 2, says: /--message must not be empty/},
  {what: 'missing --input', argv: ['orgs', 'implementation-doc', 'set', ...ORG], exit: 2, says: /missing required flag --input\b/},
  {what: 'missing config VALUE', argv: ['config', 'set', 'org'], exit: 2, says: /missing argument VALUE\b/},
  {what: 'missing api PATH', argv: ['api'], exit: 2, says: /missing argument PATH\b/},

  // --input: invalid JSON (line and column), not an object, unreadable, empty
  {
    what: '--input invalid JSON',
    argv: ['runs', 'fork', 'run_acme_0001', '--input', BAD_JSON],
    exit: 2,
    says: /--input .*bad\.json is not valid JSON: .* at line 3, column 3/,
  },
  {
    what: '--input an array',
    argv: ['orgs', 'implementation-doc', 'set', '--input', ARRAY_JSON, ...ORG],
    exit: 2,
    says: /--input .*array\.json must be a JSON object, got an array/,
  },
  {
    what: '--input a number',
    argv: ['experiments', 'launch', EXP, '--input', NUMBER_JSON, ...ORG],
    exit: 2,
    says: /must be a JSON object, got number/,
  },
  {
    what: '--input - invalid JSON on stdin',
    argv: ['optimizations', 'propose', OPT, '--input', '-', ...ORG],
    input: '{"goal": ',
    exit: 2,
    says: /--input \(stdin\) is not valid JSON: .*line 1, column 10/,
  },
  {
    what: '--input missing file',
    argv: ['runs', 'fork', 'run_acme_0001', '--input', MISSING],
    exit: 2,
    says: /--input: cannot read ".*missing\.json" \(no such file\)/,
  },
  {
    what: '--input empty file',
    argv: ['orgs', 'implementation-doc', 'set', '--input', EMPTY_JSON, ...ORG],
    exit: 2,
    says: /--input .*empty\.json is empty; expected a JSON object/,
  },

  // -F / -f
  {
    what: '-F without =',
    argv: ['api', '-X', 'POST', '/orgs/{org}/things', '-F', 'novalue', ...ORG],
    exit: 2,
    says: /-F expects key=value, got "novalue"/,
  },
  {what: '-F without a key', argv: ['runs', 'fork', 'run_acme_0001', '-F', '=1'], exit: 2, says: /-F expects key=value, got "=1"/},
  {
    what: '-F broken JSON value',
    argv: ['experiments', 'launch', EXP, '-F', 'variants={"a":', ...ORG],
    exit: 2,
    says: /-F variants: the value looks like JSON but is not valid: .*line 1, column 6/,
  },
  {
    what: '-F @file missing',
    argv: ['optimizations', 'preview', OPT, '-F', `notes=@${MISSING}`, ...ORG],
    exit: 2,
    says: /-F notes: cannot read ".*missing\.json" \(no such file\)/,
  },
  {what: '-f without a key', argv: ['api', '/orgs/{org}/things', '-f', '=v', ...ORG], exit: 2, says: /-f expects key=value, got "=v"/},

  // base URLs: https unless loopback, absolute, no credentials, no query
  {
    what: 'http to a public host',
    argv: ['orgs', 'summary', '--base-url', 'http://api.example.com', ...ORG],
    exit: 2,
    says: /--base-url "http:\/\/api\.example\.com" must use https: a token never travels in clear text/,
  },
  {
    what: 'http to a private address (env)',
    argv: ['orgs', 'summary', ...ORG],
    env: {AMCTL_BASE_URL: 'http://10.0.0.1:4010'},
    exit: 2,
    says: /AMCTL_BASE_URL "http:\/\/10\.0\.0\.1:4010" must use https/,
  },
  {
    what: 'ftp URL',
    argv: ['orgs', 'summary', '--base-url', 'ftp://127.0.0.1', ...ORG],
    exit: 2,
    says: /--base-url "ftp:\/\/127\.0\.0\.1" must use https/,
  },
  {
    what: 'not a URL',
    argv: ['orgs', 'summary', '--base-url', 'api.example.com', ...ORG],
    exit: 2,
    says: /--base-url "api\.example\.com" is not an absolute URL/,
  },
  {
    what: 'URL with credentials',
    argv: ['orgs', 'summary', '--base-url', 'https://user:pw@api.example.com', ...ORG],
    exit: 2,
    says: /--base-url "https:\/\/\*\*\*:\*\*\*@api\.example\.com\/" must not carry a user name or password/,
  },
  {
    what: 'URL with a query',
    argv: ['orgs', 'summary', '--base-url', 'https://api.example.com/?x=1', ...ORG],
    exit: 2,
    says: /must not have a query or fragment/,
  },
  {
    what: 'config set base-url http',
    argv: ['config', 'set', 'base-url', 'http://api.example.com'],
    exit: 2,
    says: /base URL "http:\/\/api\.example\.com" must use https/,
  },

  // malformed tokens: AMCTL_TOKEN and stdin of auth login --with-token
  {
    what: 'AMCTL_TOKEN without svc_',
    argv: ['orgs', 'summary', ...ORG],
    env: {AMCTL_TOKEN: 'ghp_abcdef'},
    exit: 2,
    says: /AMCTL_TOKEN is not a valid token: expected "svc_"/,
  },
  {
    what: 'AMCTL_TOKEN svc_ alone',
    argv: ['runs', 'list', ...ORG],
    env: {AMCTL_TOKEN: 'svc_'},
    exit: 2,
    says: /AMCTL_TOKEN is not a valid token/,
  },
  {
    what: 'AMCTL_TOKEN with a space',
    argv: ['connections', 'list', ...ORG],
    env: {AMCTL_TOKEN: 'svc_abc def'},
    exit: 2,
    says: /AMCTL_TOKEN is not a valid token/,
  },
  {
    what: 'AMCTL_TOKEN with "Bearer "',
    argv: ['auth', 'status'],
    env: {AMCTL_TOKEN: 'Bearer svc_abcdef'},
    exit: 2,
    says: /AMCTL_TOKEN is not a valid token/,
  },
  {
    what: 'stdin token without svc_',
    argv: ['auth', 'login', '--with-token'],
    env: {AMCTL_TOKEN: undefined},
    input: 'nope\n',
    exit: 2,
    says: /the token read from stdin is not a valid token/,
  },
  {
    what: 'stdin token empty',
    argv: ['auth', 'login', '--with-token'],
    env: {AMCTL_TOKEN: undefined},
    input: '',
    exit: 2,
    says: /the token read from stdin is not a valid token/,
  },
  {
    what: 'stdin token with a space',
    argv: ['auth', 'login', '--with-token'],
    env: {AMCTL_TOKEN: undefined},
    input: 'svc_ab cd\n',
    exit: 2,
    says: /the token read from stdin is not a valid token/,
  },
  {
    what: 'stdin token on two lines',
    argv: ['auth', 'login', '--with-token'],
    env: {AMCTL_TOKEN: undefined},
    input: 'svc_abcd\nsvc_efgh\n',
    exit: 2,
    says: /the token read from stdin is not a valid token/,
  },

  // deletes off a terminal need --yes
  {
    what: 'tags delete without --yes',
    argv: ['tags', 'delete', TAGS.acmeFlaky, ...ORG],
    exit: 2,
    says: /refusing to delete tag tag_acme_flaky without --yes/,
  },
  {
    what: 'mcp-servers delete without --yes',
    argv: ['mcp-servers', 'delete', MCP_SERVERS.acmeGithub.id, ...ORG],
    exit: 2,
    says: /refusing to delete MCP server mcp_acme_github without --yes/,
  },

  // --limit, --timeout
  {what: 'limit 0', argv: ['runs', 'list', '--limit', '0', ...ORG], exit: 2, says: /--limit must be from 1 to 200, got 0/},
  {what: 'limit 201', argv: ['runs', 'list', '--limit', '201', ...ORG], exit: 2, says: /--limit must be from 1 to 200, got 201/},
  {
    what: 'limit x',
    argv: ['runs', 'list', '--all', '--limit', 'x', ...ORG],
    exit: 2,
    says: /--limit must be a whole number from 1 to 200, got "x"/,
  },
  {what: 'limit 2.5', argv: ['runs', 'list', '--limit', '2.5', ...ORG], exit: 2, says: /--limit .*got "2\.5"/},
  {
    what: 'timeout 0',
    argv: ['orgs', 'summary', '--timeout', '0', ...ORG],
    exit: 2,
    says: /--timeout must be a number of seconds from 0\.001 to 86400, got "0"/,
  },
  {
    what: 'timeout that rounds to 0 ms',
    argv: ['orgs', 'summary', '--timeout', '0.0004', ...ORG],
    exit: 2,
    says: /--timeout must be a number of seconds from 0\.001 .*got "0\.0004"/,
  },
  {what: 'timeout abc', argv: ['orgs', 'summary', '--timeout', 'abc', ...ORG], exit: 2, says: /--timeout .*got "abc"/},
  {what: 'timeout negative', argv: ['orgs', 'summary', '--timeout', '-1', ...ORG], exit: 2, says: /--timeout .*got "-1"/},
  {
    what: 'AMCTL_TIMEOUT not a number',
    argv: ['orgs', 'summary', ...ORG],
    env: {AMCTL_TIMEOUT: '10s'},
    exit: 2,
    says: /AMCTL_TIMEOUT must be a number of seconds .*got "10s"/,
  },

  // config keys, org and profile names
  {
    what: 'config set unknown key',
    argv: ['config', 'set', 'colour', 'red'],
    exit: 2,
    says: /unknown config key "colour"; valid keys: base-url, org/,
  },
  {
    what: 'config get unknown key',
    argv: ['config', 'get', 'token'],
    exit: 2,
    says: /unknown config key "token"; valid keys: base-url, org/,
  },
  {what: 'config unset unknown key', argv: ['config', 'unset', 'timeout'], exit: 2, says: /unknown config key "timeout"/},
  {
    what: 'config set org with a control character',
    argv: ['config', 'set', 'org', 'acme\u001bcorp'],
    exit: 2,
    says: /org \(an organization slug or public ID\) must not contain control characters, got "acme\\u001bcorp"/,
  },
  {what: '--org ..', argv: ['runs', 'list', '--org', '..'], exit: 2, says: /--org cannot be "\.\.", got "\.\."/},
  {
    what: 'profile name with a space',
    argv: ['orgs', 'summary', '--profile', 'my profile', ...ORG],
    exit: 2,
    says: /invalid profile name "my profile"/,
  },

  // api
  {
    what: 'api unknown method',
    argv: ['api', '/me', '-X', 'FETCH'],
    exit: 2,
    says: /-X must be one of GET, POST, PUT, PATCH, DELETE, got "FETCH"/,
  },
  {what: 'api full URL', argv: ['api', 'https://evil.example/api/v1/me'], exit: 2, says: /PATH is relative to \/api\/v1 .*got a full URL/},
  {what: 'api bad header', argv: ['api', '/me', '-H', 'no colon here'], exit: 2, says: /-H expects 'Name: value', got "no colon here"/},
  {
    what: 'api --paginate with POST',
    argv: ['api', '/orgs/{org}/runs', '--paginate', '-X', 'POST', ...ORG],
    exit: 2,
    says: /--paginate works with GET only, not POST/,
  },

  // headers that frame the request are amctl's to set
  ...['Content-Length: 5', 'Transfer-Encoding: chunked', 'Host: evil.example', 'Connection: close'].map((header) => ({
    what: `api -H '${header}'`,
    argv: ['api', '/orgs/{org}/summary', '-H', header, ...ORG],
    exit: 2,
    says: new RegExp(`-H ${header.split(':')[0]}: amctl sets the headers that frame the request itself`),
  })),
  {
    what: 'http to a name below localhost',
    argv: ['orgs', 'summary', '--base-url', 'http://foo.localhost:4010', ...ORG],
    exit: 2,
    says: /--base-url "http:\/\/foo\.localhost:4010" must use https/,
  },
  {
    what: '--since with an offset no clock uses',
    argv: ['runs', 'list', '--since', '2026-11-25T21:00:00+99:00', ...ORG],
    exit: 2,
    says: /--since: the UTC offset must be from -12:00 to \+14:00, got "\+99:00"/,
  },
  ...['garbage', '1', 'on'].map((value) => ({
    what: `AMCTL_KEYCHAIN=${value}`,
    argv: ['runs', 'list', ...ORG],
    env: {AMCTL_KEYCHAIN: value},
    exit: 2,
    says: new RegExp(`AMCTL_KEYCHAIN must be "auto" .* or "off" .*, got "${value}"`),
  })),

  // unknown commands
  {what: 'unknown command', argv: ['frobnicate'], exit: 2, says: /unknown command "frobnicate"/},
  {what: 'misspelt subcommand', argv: ['runs', 'lsit', ...ORG], exit: 2, says: /unknown command "runs lsit"/},
]

// ---------------------------------------------------------------------------------------------

const e2e = useE2E()
const fig = figures('bad-input')

/** A proxy that answers nothing and records everything: any request amctl makes elsewhere lands here. */
let trap: Server
const trapped: string[] = []
let trapUrl = ''
beforeAll(async () => {
  trap = createServer((req, res) => {
    trapped.push(`${req.method} ${req.url}`)
    res.writeHead(502).end()
  })
  trap.on('connect', (req, socket) => {
    trapped.push(`CONNECT ${req.url}`)
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
  })
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve))
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`
})
afterAll(
  () =>
    new Promise<void>((resolve) => {
      trap.closeAllConnections()
      trap.close(() => resolve())
    }),
)
beforeEach(async () => {
  trapped.length = 0
  await e2e.current.clearRequests()
})

const proxied = (env: Record<string, string | undefined> = {}) => ({
  HTTP_PROXY: trapUrl,
  HTTPS_PROXY: trapUrl,
  NO_PROXY: '127.0.0.1',
  ...env,
})
const tally = {cases: 0, documentedExit: 0, oneErrorLine: 0, requestsSent: 0}

describe('bad input: the documented exit code, one error line naming the problem, nothing sent', () => {
  it('has at least 40 cases, each named once', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40)
    expect(new Set(TABLE.map((c) => c.what)).size).toBe(TABLE.length)
  })

  it.each(TABLE)('$what: amctl $argv → exit $exit', async ({argv, exit, says, env, input}) => {
    const r = await e2e.current.amctl(argv, {env: proxied(env), input})
    const sent = [...(await e2e.current.requests()).map((q) => `${q.method} ${q.path}`), ...trapped]
    tally.cases += 1
    if (r.exitCode === exit) tally.documentedExit += 1
    if (lines(r.stderr).filter((line) => line.startsWith('error: ')).length === 1 && r.stdout === '') tally.oneErrorLine += 1
    tally.requestsSent += sent.length
    fig.set('table', {...tally})

    const line = expectOneErrorLine(r, exit)
    expect(line).toMatch(says)
    expect(line).toMatch(/\(invalid_request\)$/)
    expect(sent).toEqual([])
  })

  it('--json: the same failures are one JSON error document on stdout and nothing on stderr', async () => {
    for (const c of TABLE.filter((row) => !row.argv.includes('frobnicate'))
      .slice(0, 60)
      .filter((_, i) => i % 12 === 0)) {
      const r = await e2e.current.amctl([...c.argv, '--json'], {env: proxied(c.env), input: c.input})
      expect(r.stderr, c.what).toBe('')
      expect(JSON.parse(r.stdout), c.what).toEqual({error: {code: 'invalid_request', message: expect.stringMatching(c.says)}})
      expect(r.exitCode, c.what).toBe(c.exit)
    }
    expect(await e2e.current.requests()).toEqual([])
    expect(trapped).toEqual([])
  })

  it('control: the trap proxy does see a request amctl really sends to another host', async () => {
    const r = await e2e.current.amctl(['orgs', 'summary', '--base-url', 'https://api.example.com', ...ORG], {env: proxied()})
    expect(r.exitCode).toBe(1)
    expect(trapped.length).toBeGreaterThan(0)
    expect(new Set(trapped)).toEqual(new Set(['CONNECT api.example.com:443']))
  })
})
