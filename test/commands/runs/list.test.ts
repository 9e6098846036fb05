import {describe, expect, it} from 'vitest'
import RunsList from '../../../src/commands/runs/list.js'
import {runCommand} from '../../helpers/cli.js'
import {reply, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {readRecent} from '../../../src/core/recent.js'
import {tempDir} from '../../helpers/temp.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'
import {roundAndRound} from '../../helpers/pages.js'

const run = (i: number) => ({
  id: `run_${i}`,
  status: 'succeeded',
  evalSetId: 'es_1',
  batchId: 'b_1',
  createdAt: `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`,
  forkedFrom: null,
  agent: null,
  model: null,
  score: null,
})
const api = useFakeApi()

/** Three pages of 2 runs: cursors c1, c2, then none. */
function paged() {
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
    if (!cursor) return reply(200, {items: [run(1), run(2)], nextCursor: 'c1'})
    if (cursor === 'c1') return reply(200, {items: [run(3), run(4)], nextCursor: 'c2'})
    return reply(200, {items: [run(5), run(6)], nextCursor: null})
  })
}

describe('runs list', () => {
  it('sends GET /orgs/{org}/runs with limit and cursor only when given', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: 'c1'})
    await runCommand(RunsList, ['--org', 'acme'], {env: api.env()})
    await runCommand(RunsList, ['--org', 'acme', '--limit', '5', '--cursor', 'abc'], {env: api.env()})
    const [plain, both] = api.requests()
    expect(plain.path).toBe('/api/v1/orgs/acme/runs')
    expect(both.path).toBe('/api/v1/orgs/acme/runs?limit=5&cursor=abc')
  })

  it('-L is --limit, as gh has it', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme', '-L', '5'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0].path).toBe('/api/v1/orgs/acme/runs?limit=5')
    const bad = await runCommand(RunsList, ['--org', 'acme', '-L', '0'], {env: api.env()})
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/^error: --limit /)
  })

  it('resolves the org from GET /me when the caller has exactly one', async () => {
    api.stub('GET /orgs/acme/runs', {items: []})
    const r = await runCommand(RunsList, [], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/me', '/api/v1/orgs/acme/runs'])
  })

  it('asks for --org (exit 2) when the caller has several orgs', async () => {
    api.stub('GET /me', {
      id: 'u',
      email: 'a@b',
      name: 'A',
      orgs: [
        {slug: 'acme', publicId: 'org_1', name: 'Acme'},
        {slug: 'globex', publicId: 'org_2', name: 'Globex'},
      ],
    })
    const r = await runCommand(RunsList, [], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('you belong to 2 organizations (acme, globex): pass --org or run `amctl config set org <slug>`')
  })

  it('renders a table on a TTY, TSV rows when piped, the page as-is with --json', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1), run(2)], nextCursor: 'c1'})
    const tty = await runCommand(RunsList, ['--org', 'acme'], {tty: true, env: api.env()})
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+EVAL SET\s+CREATED$/)
    expect(tty.stdout).toMatch(/run_1\s+succeeded\s+es_1\s+\d+ \w+ ago\n/)
    expect(tty.stderr).toContain('more: amctl runs list --cursor c1 --org acme (or --all)')
    const piped = await runCommand(RunsList, ['--org', 'acme'], {env: api.env()})
    // ID, status, eval set, created, then agent, model, score (empty when a run has none)
    expect(piped.stdout).toBe('run_1\tsucceeded\tes_1\t2026-01-01T00:00:01Z\t\t\t\nrun_2\tsucceeded\tes_1\t2026-01-01T00:00:02Z\t\t\t\n')
    const json = await runCommand(RunsList, ['--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual({items: [run(1), run(2)], nextCursor: 'c1'})
    expect(json.stdout.trim().split('\n')).toHaveLength(1)
  })

  it('the more: hint repeats the flags that chose the org, profile, base URL and page size, quoted for the shell', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: "c'1 x"})
    const r = await runCommand(RunsList, ['--org', 'acme', '--profile', 'staging', '--base-url', api.url, '--limit', '1'], {
      tty: true,
      env: api.env({AMCTL_BASE_URL: undefined}),
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `more: amctl runs list --cursor 'c'\\''1 x' --limit 1 --org acme --profile staging --base-url ${api.url} (or --all)`,
    )
    const piped = await runCommand(RunsList, ['--org', 'acme'], {env: api.env()})
    expect(piped.stderr).toBe('')
  })

  it('--all follows nextCursor to the end and streams one {"items":[…]} document', async () => {
    paged()
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--json', '--limit', '2'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({items: [1, 2, 3, 4, 5, 6].map(run)})
    expect(api.requests().map((q) => q.path)).toEqual([
      '/api/v1/orgs/acme/runs?limit=2',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c1',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c2',
    ])
  })

  it('--all piped writes TSV rows of every page; on a TTY one header', async () => {
    paged()
    const piped = await runCommand(RunsList, ['--org', 'acme', '--all'], {env: api.env()})
    expect(
      piped.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['run_1', 'run_2', 'run_3', 'run_4', 'run_5', 'run_6'])
    const tty = await runCommand(RunsList, ['--org', 'acme', '--all'], {tty: true, env: api.env()})
    expect(tty.stdout.match(/^ID /gm)).toHaveLength(1)
    expect(tty.stdout.trim().split('\n')).toHaveLength(7)
  })

  it('--all closes the JSON document with the error when a page fails midway', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      if (!req.path.includes('cursor')) return reply(200, {items: [run(1)], nextCursor: 'c1'})
      return reply(404, {error: {code: 'not_found', message: 'cursor expired'}})
    })
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    const doc = JSON.parse(r.stdout)
    expect(doc.items).toEqual([run(1)])
    expect(doc.error).toMatchObject({code: 'not_found', status: 404})
  })

  it("a 404 on a later page is that page's, not the organization's: the server's message unchanged under --json", async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      if (!req.path.includes('cursor')) return reply(200, {items: [run(1)], nextCursor: 'cur_1'})
      return reply(404, {error: {code: 'not_found', message: 'Cursor cur_1 has expired'}})
    })
    const json = await runCommand(RunsList, ['--org', 'acme', '--all', '--json'], {env: api.env()})
    expect(json.exitCode).toBe(5)
    expect(JSON.parse(json.stdout)).toEqual({
      items: [run(1)],
      error: {
        code: 'not_found',
        message: 'Cursor cur_1 has expired',
        status: 404,
        context: 'page 2 (cursor cur_1) of the runs of acme not found',
      },
    })
    const piped = await runCommand(RunsList, ['--org', 'acme', '--all'], {env: api.env()})
    expect(piped.exitCode).toBe(5)
    expect(piped.stdout.split('\t')[0]).toBe('run_1')
    expect(piped.stderr).toBe(
      'error: page 2 (cursor cur_1) of the runs of acme not found: Cursor cur_1 has expired (not_found, HTTP 404)\n',
    )
  })

  it('--all --json whose first page fails prints only the error document', async () => {
    api.stub('GET /orgs/acme/runs', () => reply(403, {error: {code: 'forbidden', message: 'not a member of acme'}}))
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(4)
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'forbidden', message: 'not a member of acme', status: 403}})
  })

  it('a page without an "items" array is bad_response (exit 1), on a TTY too', async () => {
    api.stub('GET /orgs/acme/runs', unchecked('a page without items, which amctl must refuse', 200, {data: []}))
    for (const tty of [true, false]) {
      const r = await runCommand(RunsList, ['--org', 'acme'], {tty, env: api.env()})
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toMatch(
        /^error: expected a page with an "items" array from GET \/orgs\/acme\/runs, got no "items" \(bad_response\)\n$/,
      )
    }
  })

  it('--all stops on a repeated cursor with bad_response instead of looping', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: 'same'})
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(JSON.parse(r.stdout).error.code).toBe('bad_response')
    expect(api.requests().length).toBe(2)
  })

  it('--all on a list that comes round again with new cursors (500 runs served again and again) ends with bad_response naming the cursor', async () => {
    const list = roundAndRound(Array.from({length: 500}, (_, i) => ({...run(1), id: `run_${i}`})))
    api.stub('GET /orgs/acme/runs', (req) => reply(200, list(new URL(req.path, 'http://x'))))
    const json = await runCommand(RunsList, ['--org', 'acme', '--all', '--limit', '200', '--json'], {env: api.env()})
    expect(json.exitCode).toBe(1)
    const doc = JSON.parse(json.stdout)
    // pages of 200: the fourth (runs 100–299 again) holds nothing new
    expect([doc.items.length, doc.error.code, api.requests().length]).toEqual([600, 'bad_response', 4])
    const message =
      'page 4 (cursor "w600") of the runs of acme holds only items already listed: the list comes round again; stopping instead of looping forever'
    expect(doc.error.message).toBe(message)
    const piped = await runCommand(RunsList, ['--org', 'acme', '--all', '--limit', '200'], {env: api.env()})
    expect([piped.exitCode, piped.stdout.trim().split('\n').length, piped.stderr]).toEqual([1, 600, `error: ${message} (bad_response)\n`])
  })

  it.each([['0'], ['201'], ['2.5'], ['abc'], ['']])('--limit %j exits 2 before any request', async (limit) => {
    const r = await runCommand(RunsList, ['--org', 'acme', '--limit', limit], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: --limit must be/)
    expect(api.requests()).toHaveLength(0)
  })

  it('names the organization in a first-page 404 whose message does not, once', async () => {
    api.stub('GET /orgs/nope/runs', () => reply(404, {error: {code: 'not_found', message: 'not found'}}))
    const r = await runCommand(RunsList, ['--org', 'nope'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe('error: organization "nope" not found (not_found, HTTP 404)\n')
    const json = await runCommand(RunsList, ['--org', 'nope', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual({
      error: {code: 'not_found', message: 'not found', status: 404, context: 'organization "nope" not found'},
    })
  })
})

describe('runs list: what it keeps for shell completion', () => {
  const recent = (env: Record<string, string>) => readRecent(env, FAKE_WALL_START)

  it('keeps the runs it showed, their eval sets and the organization in the cache directory, in every output form', async () => {
    // (--jq: test/base/base-command.test.ts, with the engine)
    for (const argv of [[], ['--json']]) {
      const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
      api.stub('GET /orgs/acme/runs', {items: [run(2), {...run(1), status: 'failed', evalSetId: 'es_2'}], nextCursor: null})
      const r = await runCommand(RunsList, ['--org', 'acme', ...argv], {env})
      expect(r.exitCode).toBe(0)
      const seen = recent(env)
      expect(seen.runs.map(({id, org, note}) => ({id, org, note}))).toEqual([
        {id: 'run_2', org: 'acme', note: 'succeeded, es_1'},
        {id: 'run_1', org: 'acme', note: 'failed, es_2'},
      ])
      expect(seen.evalSets.map((e) => [e.id, e.org])).toEqual([
        ['es_1', 'acme'],
        ['es_2', 'acme'],
      ])
      expect(seen.orgs.map((o) => o.id)).toEqual(['acme'])
    }
    // the cache is the client's own: no request but the list
    expect(api.requests().every((q) => q.path === '/api/v1/orgs/acme/runs')).toBe(true)
  })

  it('--all keeps the runs of every page as they stream (the newest first), only those a filter kept', async () => {
    paged()
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--limit', '2', '--until', '2026-01-01T00:00:05Z'], {env})
    expect(r.exitCode).toBe(0)
    expect(recent(env).runs.map((e) => e.id)).toEqual(['run_1', 'run_2', 'run_3', 'run_4'])
  })

  it('keeps nothing when the list fails', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      if (!req.path.includes('cursor')) return reply(200, {items: [run(1)], nextCursor: 'c1'})
      return reply(500, {error: {code: 'internal', message: 'down'}})
    })
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    const r = await runCommand(RunsList, ['--org', 'acme', '--all'], {env})
    expect(r.exitCode).toBe(1)
    expect(recent(env)).toEqual({orgs: [], runs: [], evalSets: []})
  })
})

describe('runs list: typed result and renderer', () => {
  it('returns the page, hands its runs to the renderer as a list, then the more: notice on a terminal', async () => {
    const page = {items: [run(1), run(2)], nextCursor: 'c1'}
    api.stub('GET /orgs/acme/runs', page)
    const tty = await runCommand(RunsList, ['--org', 'acme'], {tty: true, env: api.env()})
    expect(tty.result).toEqual(page)
    expect(tty.rendered).toEqual([
      {method: 'list', rows: page.items, columns: ['ID', 'STATUS', 'EVAL SET', 'AGENT', 'MODEL', 'SCORE', 'CREATED']},
      {method: 'notice', text: 'more: amctl runs list --cursor c1 --org acme (or --all)'},
    ])
    const json = await runCommand(RunsList, ['--org', 'acme', '--json'], {env: api.env()})
    expect(json.result).toEqual(page)
  })
})

describe('runs list on a terminal: width and colour', () => {
  const long = (i: number, status: string) => ({
    ...run(i),
    status,
    agent: `claude-code-enterprise-edition-with-a-very-long-agent-name-${'a'.repeat(60)}-${i}`,
    model: `anthropic/claude-sonnet-4-5-20250929-extended-thinking-${'m'.repeat(40)}`,
    score: 0.5,
  })
  const STATUSES = ['succeeded', 'failed', 'running', 'queued', 'cancelled']

  it.each([80, 160])('at %i columns the table never wraps: every line fits, the widest flexible column is cut with …', async (columns) => {
    api.stub('GET /orgs/acme/runs', {items: STATUSES.map((s, i) => long(i + 1, s)), nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme'], {tty: true, columns, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns)
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+EVAL SET\s+AGENT\s+MODEL\s+SCORE\s+CREATED$/)
    // the ID, status and created columns are whole; the agent (the widest) is cut
    expect(lines[1]).toMatch(/^run_1\s+succeeded\s+es_1\s+claude-code-\S*…\s+\S+\s+0\.50\s+\S.* ago$/)
  })

  // what the dev server lists: launched runs, seeded IDs, agent and model, a score, minutes old
  const seeded = (i: number, status: string) => ({
    id: `run_0000000${'xyz'[i % 3]}`,
    status,
    evalSetId: 'es_acme_checkout',
    batchId: 'bat_00000002',
    forkedFrom: null,
    agent: 'claude-code',
    model: 'claude-sonnet-4-5',
    score: status === 'succeeded' ? 0.71 : null,
    createdAt: new Date(FAKE_WALL_START - 52_000).toISOString(),
  })

  it.each([60, 80, 100])('at %i columns real runs fit: agent and model are cut or left out, never a wrapped row', async (columns) => {
    api.stub('GET /orgs/globex/runs', {items: STATUSES.map((s, i) => seeded(i, s)), nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'globex'], {tty: true, columns, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns)
    // the ID and the status are whole
    expect(lines[1]).toMatch(/^run_0000000x {2}succeeded {2}/)
  })

  const paint = {succeeded: '\u001b[32m', failed: '\u001b[31m', running: '\u001b[33m', queued: '\u001b[33m', cancelled: '\u001b[2m'}

  it('colours statuses: green succeeded, red failed, yellow running and queued, dim cancelled', async () => {
    api.stub('GET /orgs/acme/runs', {items: STATUSES.map((s, i) => ({...run(i + 1), status: s})), nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme'], {tty: true, color: true, env: api.env()})
    const lines = r.stdout.trimEnd().split('\n')
    STATUSES.forEach((status, i) => {
      expect(lines[i + 1]).toContain(`${paint[status as keyof typeof paint]}${status}`)
    })
  })

  it('has no colour with NO_COLOR, when piped, or under --json', async () => {
    api.stub('GET /orgs/acme/runs', {items: STATUSES.map((s, i) => ({...run(i + 1), status: s})), nextCursor: null})
    const noColor = await runCommand(RunsList, ['--org', 'acme'], {tty: true, color: true, env: api.env({NO_COLOR: '1'})})
    const piped = await runCommand(RunsList, ['--org', 'acme'], {color: true, env: api.env()})
    const json = await runCommand(RunsList, ['--org', 'acme', '--json'], {color: true, env: api.env()})
    expect(noColor.stdout).toMatch(/^ID\s+STATUS/)
    for (const r of [noColor, piped, json]) {
      expect(r.exitCode).toBe(0)
      expect(r.stdout).not.toContain('\u001b[')
    }
  })
})

describe('runs list filters (client-side: the API has none)', () => {
  const at = (iso: string, fields: Record<string, unknown> = {}) => ({...run(0), createdAt: iso, ...fields})
  // newest first, as the API lists them: three pages of two
  const PAGES = [
    [
      at('2026-11-25T10:00:00Z', {id: 'r6', status: 'running', agent: 'codex', model: 'gpt-5'}),
      at('2026-11-25T09:00:00Z', {id: 'r5', status: 'succeeded', evalSetId: 'es_2', agent: 'codex', model: 'gpt-5'}),
    ],
    [
      at('2026-11-24T09:00:00Z', {id: 'r4', status: 'failed', agent: 'claude-code', model: 'claude-sonnet-4-5'}),
      at('2026-11-20T09:00:00Z', {id: 'r3', status: 'weird', agent: 'codex', model: 'gpt-5'}),
    ],
    [
      at('2026-11-10T09:00:00Z', {id: 'r2', status: 'cancelled', agent: 'codex', model: 'gpt-5'}),
      at('2026-11-01T09:00:00Z', {id: 'r1', status: 'succeeded', agent: 'codex', model: 'gpt-5'}),
    ],
  ]
  function pagedByDate() {
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      const index = cursor === null ? 0 : Number(cursor.slice(1))
      return reply(200, {items: PAGES[index], nextCursor: index < PAGES.length - 1 ? `p${index + 1}` : null})
    })
  }
  const ids = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0])

  it('--status (repeatable and comma-separated; unfinished = not terminal, unknown statuses too) with --all', async () => {
    pagedByDate()
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--status', 'failed,cancelled', '--status', 'unfinished'], {
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(ids(r.stdout)).toEqual(['r6', 'r4', 'r3', 'r2'])
  })

  it('--eval-set, --agent and --model match exactly, all together', async () => {
    pagedByDate()
    const r = await runCommand(
      RunsList,
      ['--org', 'acme', '--all', '--agent', 'codex', '--model', 'gpt-5', '--eval-set', 'es_1', '--json'],
      {
        env: api.env(),
      },
    )
    expect(JSON.parse(r.stdout).items.map((x: {id: string}) => x.id)).toEqual(['r6', 'r3', 'r2', 'r1'])
  })

  it('--since stops paging at the first page that reaches older runs, and says so under --verbose', async () => {
    pagedByDate()
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--since', '2026-11-22', '--verbose'], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(ids(r.stdout)).toEqual(['r6', 'r5', 'r4'])
    const sent = api.requests().map((q) => q.path)
    expect(sent).toEqual(['/api/v1/orgs/acme/runs', '/api/v1/orgs/acme/runs?cursor=p1'])
    expect(r.stderr).toContain('--since: this page reaches runs created before 2026-11-22T00:00:00.000Z; no later page is read')
  })

  it('--since as a duration before now, with --until; the document holds what the filters kept', async () => {
    const now = FAKE_WALL_START
    const ago = (hours: number) => new Date(now - hours * 3_600_000).toISOString()
    api.stub('GET /orgs/acme/runs', {
      items: [at(ago(1), {id: 'a'}), at(ago(30), {id: 'b'}), at(ago(60), {id: 'c'}), at(ago(100), {id: 'd'})],
      nextCursor: 'more',
    })
    const r = await runCommand(RunsList, ['--org', 'acme', '--since', '3d', '--until', '24h', '--json'], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    const document = JSON.parse(r.stdout)
    // the page reached runs older than --since: no later page can hold a match, so no cursor
    expect([document.items.map((item: {id: string}) => item.id), document.nextCursor]).toEqual([['b', 'c'], null])
  })

  it('without --all, a first page holding --limit matches is the one request; the more: hint keeps the filters, --since as the instant it meant', async () => {
    pagedByDate()
    const tty = await runCommand(RunsList, ['--org', 'acme', '--limit', '2', '--agent', 'codex', '--since', '30d'], {
      tty: true,
      env: api.env(),
    })
    expect(tty.exitCode, tty.stderr).toBe(0)
    expect(tty.stdout).toMatch(/^ID\s+STATUS.*\nr6\s+running\s.*\nr5\s+succeeded\s/)
    expect(tty.stdout.trim().split('\n')).toHaveLength(3)
    expect(tty.stderr).toMatch(
      /more: amctl runs list --cursor p1 --limit 2 --agent codex --since 20\d\d-\d\d-\d\dT[\d:.]+Z --org acme \(or --all\)/,
    )
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs?limit=2'])
  })

  describe('without --all, a filter reads on until --limit runs match (issue 37 item 15)', () => {
    /** `count` runs of es_1, newest first (IDs p0, p1…), those at `others` of es_x; cursors are positions; pages of `limit` (50 without). */
    function positional(count: number, others: number[]) {
      api.stub('GET /orgs/acme/runs', (req) => {
        const url = new URL(req.path, 'http://x')
        const start = Number(url.searchParams.get('cursor') ?? 0)
        const end = Math.min(count, start + Number(url.searchParams.get('limit') ?? 50))
        const items = Array.from({length: end - start}, (_, i) => ({
          ...at('2026-01-01T00:00:00Z', {id: `p${start + i}`}),
          ...(others.includes(start + i) ? {evalSetId: 'es_x'} : {}),
        }))
        return reply(200, {items, nextCursor: end < count ? String(end) : null})
      })
    }
    const paths = () => api.requests().map((q) => q.path.replace('/api/v1/orgs/acme/runs', ''))

    it('--limit 3 --eval-set X when the first page holds none: the next pages (200 each) up to the 3rd match; the rest of its page asked for again so that the more: cursor comes right after it', async () => {
      positional(500, [250, 260, 270, 280])
      const json = await runCommand(RunsList, ['--org', 'acme', '--limit', '3', '--eval-set', 'es_x', '--json'], {env: api.env()})
      expect(json.exitCode, json.stderr).toBe(0)
      expect(JSON.parse(json.stdout)).toMatchObject({items: [{id: 'p250'}, {id: 'p260'}, {id: 'p270'}], nextCursor: '271'})
      // the page holding the 3rd match asked for again up to it (203–270: 68 runs)
      expect(paths()).toEqual(['?limit=3', '?limit=200&cursor=3', '?limit=200&cursor=203', '?limit=68&cursor=203'])
      const rest = await runCommand(RunsList, ['--org', 'acme', '--cursor', '271', '--limit', '3', '--eval-set', 'es_x', '--json'], {
        env: api.env(),
      })
      expect(JSON.parse(rest.stdout)).toMatchObject({items: [{id: 'p280'}], nextCursor: null})
      const tty = await runCommand(RunsList, ['--org', 'acme', '--limit', '3', '--eval-set', 'es_x'], {tty: true, env: api.env()})
      expect(
        tty.stdout
          .trim()
          .split('\n')
          .map((line) => line.split(/\s+/)[0]),
      ).toEqual(['ID', 'p250', 'p260', 'p270'])
      // the progress line (erased before the table), then the command for the next page
      expect(tty.stderr).toContain('fetched 3 runs…')
      expect(tty.stderr).toContain('more: amctl runs list --cursor 271 --limit 3 --eval-set es_x --org acme (or --all)')
      const piped = await runCommand(RunsList, ['--org', 'acme', '--limit', '3', '--eval-set', 'es_x'], {env: api.env()})
      expect([ids(piped.stdout), piped.stderr]).toEqual([['p250', 'p260', 'p270'], ''])
    })

    it('without --limit, up to 50 matches; the list ending first ends the read, with no cursor', async () => {
      positional(300, [10, 120, 299])
      const r = await runCommand(RunsList, ['--org', 'acme', '--eval-set', 'es_x', '--json'], {env: api.env()})
      expect(JSON.parse(r.stdout)).toMatchObject({items: [{id: 'p10'}, {id: 'p120'}, {id: 'p299'}], nextCursor: null})
      expect(paths()).toEqual(['', '?limit=200&cursor=50', '?limit=200&cursor=250'])
    })

    it('reads at most 10,000 runs: then it shows the matches it has, and on a terminal says so above the more: hint', async () => {
      positional(30_000, [5])
      const json = await runCommand(RunsList, ['--org', 'acme', '--limit', '3', '--eval-set', 'es_x', '--json'], {env: api.env()})
      expect(JSON.parse(json.stdout)).toMatchObject({items: [{id: 'p5'}], nextCursor: '10003'})
      // 3, then 50 pages of 200
      expect(api.requests()).toHaveLength(51)
      const tty = await runCommand(RunsList, ['--org', 'acme', '--limit', '3', '--eval-set', 'es_x'], {tty: true, env: api.env()})
      expect(tty.exitCode).toBe(0)
      const said = [
        'the filters kept 1 of the 10,003 newest runs read, fewer than --limit 3: amctl reads at most 10,000 runs for one page',
        'more: amctl runs list --cursor 10003 --limit 3 --eval-set es_x --org acme (or --all)',
      ].map((line) => tty.stderr.indexOf(line))
      expect(said[0], tty.stderr).toBeGreaterThan(0)
      expect(said[1]).toBeGreaterThan(said[0])
    })
  })

  it('a filter that keeps nothing: (none) on a terminal, nothing piped, an empty list with --json', async () => {
    api.stub('GET /orgs/acme/runs', {items: PAGES[0], nextCursor: null})
    const tty = await runCommand(RunsList, ['--org', 'acme', '--model', 'nope'], {tty: true, env: api.env()})
    expect(tty.stderr).toContain('(none)')
    const piped = await runCommand(RunsList, ['--org', 'acme', '--model', 'nope'], {env: api.env()})
    expect(piped.stdout).toBe('')
    const json = await runCommand(RunsList, ['--org', 'acme', '--model', 'nope', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual({items: [], nextCursor: null})
  })

  it.each([
    [['--status', 'done'], /^error: --status must be one of queued, running, succeeded, failed, cancelled, unfinished/],
    [['--status', 'failed,'], /^error: --status must be one of .*got ""/],
    [['--since', 'yesterday'], /^error: --since must be a duration before now \(7d, 12h, 90m\) or a date/],
    [['--until', '2026-02-30'], /^error: --until must be a duration before now/],
    [['--since', '2026-11-02', '--until', '2026-11-01'], /^error: --since \(2026-11-02T00:00:00.000Z\) must come before --until/],
    [['--eval-set', ''], /^error: --eval-set must not be empty/],
  ])('%j exits 2 naming the flag, before any request', async (flags, message) => {
    const r = await runCommand(RunsList, ['--org', 'acme', ...flags], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(api.requests()).toHaveLength(0)
  })
})
