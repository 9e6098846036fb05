import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {baselineAt, writeBaseline} from '../../helpers/baseline.js'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import EvalsBaselineSave from '../../../src/commands/evals/baseline/save.js'
import EvalsBaselineShow from '../../../src/commands/evals/baseline/show.js'
import {runCommand} from '../../helpers/cli.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'
import {reply, useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {roundAndRound} from '../../helpers/pages.js'

// evals baseline save|show (issue 29 §1), in-process against a fake API

const api = useFakeApi({}, {me: false})

const HOUR = 3_600_000
// (the time of day of the command's fake clock: runs an hour and more before it)
const NOW = FAKE_WALL_START
/** `n` runs of es_1 for an agent, an hour apart, the newest an hour old, scores around `mean` */
function history(agent: string, n: number, mean: number, extra: Record<string, unknown> = {}) {
  return Array.from({length: n}, (_, i) => ({
    id: `run_${agent}_${i}`,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: 'b_1',
    createdAt: new Date(NOW - (i + 1) * HOUR).toISOString(),
    forkedFrom: null,
    agent,
    model: `${agent}-model`,
    score: Math.round((mean + ((i % 5) - 2) * 0.01) * 100) / 100,
    ...extra,
  }))
}

/** The org's runs, newest first, in pages of `size`. */
function serve(runs: object[], size = 200): void {
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = Number(new URL(req.path, 'http://x').searchParams.get('cursor') ?? 0)
    const items = runs.slice(cursor, cursor + size)
    return reply(200, {items, nextCursor: cursor + size < runs.length ? String(cursor + size) : null})
  })
}

const interleave = (...lists: object[][]) => lists[0].flatMap((_, i) => lists.map((l) => l[i]).filter(Boolean))

describe('evals baseline save', () => {
  it('from the history: per agent × model the newest N succeeded, scored runs within the window; one scan of the run list', async () => {
    const codex = history('codex', 30, 0.7)
    const claude = history('claude', 30, 0.8)
    const other = history('other', 5, 0.5, {evalSetId: 'es_2'})
    const failed = history('codex', 3, 0.1, {status: 'failed'}).map((r, i) => ({...r, id: `run_failed_${i}`}))
    serve(interleave(codex, claude, other, failed), 50)
    const dir = tempDir('amctl-baseline-save-')
    const path = join(dir, 'base.json')
    const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--baseline-runs', '20', '--json'], {
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(0)
    const file = baselineAt(path)
    expect(file).toMatchObject({version: 2, org: 'acme', evalSetId: 'es_1', keep: 20})
    expect(file.groups.map((g) => [g.agent, g.runs.length])).toEqual([
      ['claude', 20],
      ['codex', 20],
    ])
    // the newest 20, oldest first
    expect(file.groups[1].runs.map((run) => run.id)).toEqual(
      codex
        .slice(0, 20)
        .reverse()
        .map((run) => run.id),
    )
    expect(statSync(path).mode & 0o777).toBe(0o644)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({path, evalSetId: 'es_1', keep: 20})
    expect(doc.groups[1].newestRunAt).toBe(file.groups[1].runs.at(-1)?.createdAt)
    // codex's failed runs, newer than its oldest kept run: its failure rate
    expect(file.groups[1].failed.map((run) => run.id).sort()).toEqual(failed.map((run) => run.id).sort())
    expect(r.stderr).toBe(`Saved 40 runs of es_1 in 2 groups to ${path}, 3 failed or cancelled runs (the failure rate)\n`)
    // the window bounds the scan: runs older than 10h are not read past the first page that reaches them
    const before = api.requests().length
    const windowed = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--baseline-window', '10h'], {
      env: api.env(),
    })
    expect(windowed.exitCode, windowed.stderr).toBe(0)
    // (created at or after 10 h before now: the runs 1 h to 10 h old)
    expect(baselineAt(path).groups.map((g) => g.runs.length)).toEqual([10, 10])
    expect(api.requests().slice(before)).toHaveLength(1)
  })

  it('piped and on a terminal: one row per group (agent, model, runs, mean, sd, newest run, set aside, verdict)', async () => {
    serve(history('codex', 5, 0.7))
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    const piped = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})
    const newest = new Date(NOW - HOUR).toISOString()
    expect(piped.stdout).toBe(`codex\tcodex-model\t5\t0.7\t0.015811\t${newest}\t0\ttoo-few\t\t\t\t\t\n`)
    const tty = await runCommand(EvalsBaselineShow, [path], {tty: true, columns: 120})
    expect(tty.stdout.split('\n')[0]).toMatch(/^AGENT +MODEL +RUNS +MEAN +SD +NEWEST +ASIDE +VERDICT +TREND$/)
    expect(tty.stdout.split('\n')[1]).toMatch(/^codex +codex-model +5 +0\.70 +0\.02 +1 hour ago +0 +too-few +[▁-█]{5}$/)
  })

  it('on a 100-column terminal a file of 50 runs keeps agent and model: its trend is the newest 20 scores', async () => {
    serve(history('claude-code', 50, 0.8).map((run) => ({...run, model: 'claude-sonnet-4-5'})))
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    expect((await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})).exitCode).toBe(0)
    const tty = await runCommand(EvalsBaselineShow, [path], {tty: true, columns: 100})
    expect(tty.stdout.split('\n')[0]).toMatch(/^AGENT +MODEL +RUNS +MEAN +SD +NEWEST +ASIDE +VERDICT +TREND$/)
    expect(tty.stdout.split('\n')[1]).toMatch(/^claude-code +claude-sonnet-4-5 +50 +0\.80 +0\.01 +1 hour ago +0 +stable +[▁-█]{20}$/)
  })

  it("warns when a group's runs changed level: where the new level starts and how to save only it; a steady group no warning", async () => {
    // newest first: 20 runs around 0.84, then 20 older around 0.90 (codex steady at 0.70)
    const newer = history('claude', 20, 0.84)
    const older = history('claude', 40, 0.9).slice(20)
    serve(interleave([...newer, ...older], history('codex', 40, 0.7)))
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('warning: '))
    expect(warnings).toHaveLength(1)
    const firstOfNew = newer.at(-1) as {id: string; createdAt: string}
    expect(warnings[0]).toContain(`claude / claude-model: its scores moved from 0.90 to 0.84 at ${firstOfNew.id} (${firstOfNew.createdAt})`)
    // the runs are an hour apart, the newest an hour old: 20 h reaches the first of the new level, not the one before
    expect(warnings[0]).toContain('Save only the new level with --baseline-window 20h')
    // the file is written all the same
    expect(baselineAt(path).groups.map((g) => g.runs.length)).toEqual([40, 40])
    // saved again as the warning says: the new level alone, no warning
    const again = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--baseline-window', '20h'], {
      env: api.env(),
    })
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stderr).not.toContain('warning')
    expect(baselineAt(path).groups.map((g) => [g.agent, g.runs.length, g.mean])).toEqual([
      ['claude', 20, 0.84],
      ['codex', 20, 0.7],
    ])
  })

  it('--runs -: exactly the runs an `evals run --json` document names, looked up in the run list; a failed one recorded as failed', async () => {
    const launched = history('codex', 3, 0.7).map((r, i) => ({...r, id: `run_new_${i}`, ...(i === 1 ? {status: 'failed'} : {})}))
    serve([...launched, ...history('codex', 40, 0.5)])
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    const stdin = JSON.stringify({batchIds: ['b_1'], runIds: launched.map((r) => r.id)})
    const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--runs', '-'], {env: api.env(), stdin})
    expect(r.exitCode, r.stderr).toBe(0)
    const file = baselineAt(path)
    expect(file.groups[0].runs.map((run) => run.id)).toEqual(['run_new_2', 'run_new_0'])
    expect(file.groups[0].failed.map((run) => run.id)).toEqual(['run_new_1'])
    expect(r.stderr).toBe(`Saved 2 runs of es_1 in 1 group to ${path}, 1 failed or cancelled run (the failure rate)\n`)
  })

  it('--runs: IDs one a line, or the document of `runs watch --json` (items) or `evals run --wait --json` (runs)', async () => {
    const runs = history('codex', 4, 0.7)
    serve(runs)
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    const ids = runs.slice(0, 3).map((r) => r.id)
    for (const stdin of [
      ids.join('\n'),
      JSON.stringify({items: runs.slice(0, 3)}),
      JSON.stringify({runIds: ['x'], runs: runs.slice(0, 3)}),
    ]) {
      const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--runs', '-'], {env: api.env(), stdin})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(baselineAt(path).groups[0].runs.map((run) => run.id)).toEqual([...ids].reverse())
    }
  })

  it('bad input is exit 2 before any request; a run of another eval set exit 2, an unknown run exit 5; nothing is written', async () => {
    serve([...history('codex', 3, 0.7), ...history('other', 1, 0.7, {evalSetId: 'es_2'})])
    const dir = tempDir('amctl-baseline-save-')
    const path = join(dir, 'base.json')
    const save = (args: string[], stdin?: string) =>
      runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', ...args], {env: api.env(), stdin})
    const cases: Array<[string[], string | undefined, number, string]> = [
      [['--file', path, '--baseline-runs', '2'], undefined, 2, 'error: --baseline-runs must be from 3 to 100, got 2 (invalid_request)'],
      [['--file', dir], undefined, 2, `error: --file ${dir} is a directory; give a file path (invalid_request)`],
      [['--file', path, '--runs', '-', '--baseline-window', '7d'], 'run_1', 2, 'error: --baseline-window acts only without --runs'],
      [
        ['--file', path, '--runs', '-'],
        '{"outcome":"unknown"}',
        2,
        'error: --runs: the document of a launch whose outcome is unknown holds no runs to save',
      ],
      [['--file', path, '--runs', '-'], '{"nothing":1}', 2, 'error: --runs: a JSON document without "runs", "items" or "runIds"'],
      [['--file', path, '--runs', '-'], '  \n', 2, 'error: --runs: no run IDs (invalid_request)'],
    ]
    for (const [args, stdin, exit, message] of cases) {
      const r = await save(args, stdin)
      expect(r.exitCode, r.stderr).toBe(exit)
      expect(r.stderr).toContain(message)
      expect(api.requests()).toEqual([])
    }
    const other = await save(['--file', path, '--runs', '-'], 'run_codex_0\nrun_other_0')
    expect(other.exitCode).toBe(2)
    expect(other.stderr).toBe('error: --runs: run run_other_0 is of eval set es_2, not es_1 (invalid_request)\n')
    const missing = await save(['--file', path, '--runs', '-'], 'run_codex_0 run_gone')
    expect(missing.exitCode).toBe(5)
    expect(missing.stderr).toBe('error: run "run_gone" is not among the runs of acme (not_found)\n')
    expect(existsSync(path)).toBe(false)
  })

  it('a run list that comes round again with new cursors ends with bad_response (exit 1) naming the cursor; nothing is written', async () => {
    const list = roundAndRound(history('codex', 500, 0.7))
    api.stub('GET /orgs/acme/runs', (req) => reply(200, list(new URL(req.path, 'http://x'))))
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path, '--baseline-window', '0'], {env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('page 4 (cursor "w600") of the runs of acme holds only items already listed')
    expect(existsSync(path)).toBe(false)
  })

  it('nothing to save: exit 5, the file left as it was', async () => {
    serve(history('codex', 3, 0.7, {status: 'failed'}))
    const path = join(tempDir('amctl-baseline-save-'), 'base.json')
    writeFileSync(path, 'kept')
    const r = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe(
      `error: no run of es_1 in acme succeeded with a score within 30d: nothing to save, ${path} is unchanged (not_found)\n`,
    )
    expect(readFileSync(path, 'utf8')).toBe('kept')
  })
})

describe('evals baseline show', () => {
  it('an invalid file is exit 2 naming the file and what is wrong; --json prints the file with its path', async () => {
    const dir = tempDir('amctl-baseline-show-')
    const path = join(dir, 'base.json')
    writeFileSync(path, '{"version": 3}')
    const r = await runCommand(EvalsBaselineShow, [path])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe(`error: baseline file ${path}: version 3 is not one this amctl reads (1 or 2) (invalid_request)\n`)
    const none = await runCommand(EvalsBaselineShow, [join(dir, 'none.json'), '--json'])
    expect(none.exitCode).toBe(2)
    expect(JSON.parse(none.stdout).error.message).toMatch(/none\.json: no such file/)
    serve(history('codex', 3, 0.7))
    await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})
    const shown = await runCommand(EvalsBaselineShow, [path, '--json'])
    expect(shown.exitCode).toBe(0)
    expect(JSON.parse(shown.stdout)).toEqual({
      path,
      ...JSON.parse(readFileSync(path, 'utf8')),
      groups: [expect.objectContaining({agent: 'codex'})],
    })
  })
})

describe('evals baseline show: the verdict of `evals stats` on each group (issue 35 §3)', () => {
  /** A version 2 file: claude's 20 runs around 0.84 then 10 around 0.77 (a shift), codex's 20 steady with 4 failed of 24. */
  function shiftedFile(path: string) {
    const at = (i: number) => new Date(NOW - (40 - i) * HOUR).toISOString()
    const jitter = (i: number) => ((i % 5) - 2) * 0.01
    const claude = Array.from({length: 30}, (_, i) => ({
      id: `run_claude_${i}`,
      score: Math.round(((i < 20 ? 0.84 : 0.77) + jitter(i)) * 100) / 100,
      createdAt: at(i),
    }))
    const codex = Array.from({length: 20}, (_, i) => ({
      id: `run_codex_${i}`,
      score: Math.round((0.7 + jitter(i)) * 100) / 100,
      createdAt: at(i),
    }))
    const failed = [3, 9, 14, 18].map((i) => ({id: `run_codex_failed_${i}`, createdAt: at(i)}))
    writeBaseline(path, {savedAt: at(30)}, [
      {agent: 'claude', model: 'claude-model', runs: claude},
      {agent: 'codex', model: 'codex-model', runs: codex, failed},
    ])
    return {firstOfNew: claude[20]}
  }

  it('a shifted group says `shifted` and where its shift starts: --json, the table (and the line under it), the appended TSV fields', async () => {
    const path = join(tempDir('amctl-baseline-show-'), 'base.json')
    const {firstOfNew} = shiftedFile(path)
    const json = await runCommand(EvalsBaselineShow, [path, '--json'])
    expect(json.exitCode, json.stderr).toBe(0)
    const doc = JSON.parse(json.stdout)
    expect(doc.groups.map((g: any) => [g.agent, g.verdict])).toEqual([
      ['claude', 'shifted'],
      ['codex', 'flaky'],
    ])
    expect(doc.groups[0].shift).toEqual({runId: firstOfNew.id, createdAt: firstOfNew.createdAt, before: 0.84, after: 0.77, delta: -0.07})
    expect(doc.groups[1].shift).toBeNull()

    const tty = await runCommand(EvalsBaselineShow, [path], {tty: true, columns: 120})
    const rows = tty.stdout.split('\n')
    expect(rows[0]).toMatch(/^AGENT +MODEL +RUNS +MEAN +SD +NEWEST +ASIDE +VERDICT +TREND$/)
    expect(rows[1]).toMatch(/^claude +claude-model +30 .* shifted +[▁-█]{20}$/)
    expect(rows[2]).toMatch(/^codex +codex-model +20 .* flaky +[▁-█]{20}$/)
    const at = firstOfNew.createdAt.slice(0, 16).replace('T', ' ')
    expect(tty.stderr).toContain(`claude / claude-model shifted at ${firstOfNew.id} (${at} UTC): 0.84 before, 0.77 since (−0.07)\n`)
    expect(tty.stderr).not.toContain('codex / codex-model shifted')

    const piped = await runCommand(EvalsBaselineShow, [path])
    const fields = piped.stdout.split('\n').map((line) => line.split('\t'))
    expect(fields[0].slice(7)).toEqual(['shifted', firstOfNew.id, firstOfNew.createdAt, '0.84', '0.77', '-0.07'])
    expect(fields[1].slice(7)).toEqual(['flaky', '', '', '', '', ''])
    expect(piped.stderr).toBe('')
  })
})
