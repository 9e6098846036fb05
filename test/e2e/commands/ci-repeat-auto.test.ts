import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {tempDir} from '../../helpers/temp.js'
import {fieldCounts, RUN_FIELDS, runRows} from '../../helpers/tsv.js'
import {useE2E} from '../helpers.js'
import {jsonDoc, lines, requestsOf, untimed, useOutcomePlans} from './util.js'

// What a verdict could have seen, and --repeat auto (issue 30), through the built CLI against the
// dev server (--run-seconds 0: launched runs finish at once). The baseline is a file made here,
// so its mean and sd are known exactly: each group 20 runs alternating 0.67 and 0.73 (mean 0.70,
// sd 0.030779), and every number below can be worked out by hand (test/gate/state.test.ts does).

const e2e = useE2E({runSeconds: 0})
const ORG = 'acme'
const EVAL_SET = 'es_acme_checkout' // claude-code / claude-sonnet-4-5 and codex / gpt-5
const plan = useOutcomePlans(e2e, ORG, EVAL_SET)

let path: string
beforeAll(() => {
  const at = (i: number) => new Date(Date.now() - (20 - i) * 60_000).toISOString()
  const group = (agent: string, model: string) => {
    const runs = Array.from({length: 20}, (_, i) => ({id: `run_file_${agent}_${i}`, score: i % 2 === 0 ? 0.67 : 0.73, createdAt: at(i)}))
    return {agent, model, ...groupStats(runs), runs, setAside: [], failed: [], cancelled: []}
  }
  path = join(tempDir('amctl-e2e-auto-'), 'baseline.json')
  writeFileSync(
    path,
    baselineFileText({
      version: 2,
      org: ORG,
      evalSetId: EVAL_SET,
      savedAt: new Date().toISOString(),
      keep: 50,
      groups: [group('claude-code', 'claude-sonnet-4-5'), group('codex', 'gpt-5')],
    }),
  )
})

const GATE = () => ['evals', 'run', EVAL_SET, '--org', ORG, '--wait', '--interval', '1', '--baseline-file', path]
const launchesOf = (requests: string[]) => requests.filter((line) => line.startsWith('POST')).length
const group = (doc: any, agent: string) => doc.groups.find((g: any) => g.agent === agent)

describe('detectable and the hint', () => {
  it('every judged run says the smallest drop it could see (hand-computed: 0.109832); --max-drop 0.05 below it says which --repeat would see it', async () => {
    await plan({status: 'succeeded', score: 0.7, count: 2})
    const summary = join(tempDir('amctl-e2e-auto-'), 'summary.md')
    const r = await e2e.current.amctl([...GATE(), '--max-drop', '0.05', '--json', '--summary', summary])
    expect(r.exitCode, r.stderr).toBe(0)
    // the score's level: its share 0.025 (two groups at 95 %) less the failure test's size against the file's 20 runs, none
    // failed, for the 5 runs a step may make (a launch and 4 relaunches, each only while every run failed): beyond its
    // rate are 2 failures in 2 (1/22 × 2/23 = 0.003953), as the first run succeeding ends the step's looks at this group
    // (K(20, 1, 0.978953) + t(0.8, 19) × √(1 + 1/20)) × sd = (2.686183 + 0.860951 × 1.024695) × 0.030779 (scipy)
    for (const run of jsonDoc(r).runs) {
      expect(run.outcomes.size).toBeCloseTo(2 / (22 * 23), 6)
      expect(run.confidence).toBeCloseTo(0.978953, 5)
      expect(run.detectable).toBeCloseTo(0.109832, 5)
    }
    expect(lines(r.stderr)).toContain('! this step could only see drops of 0.11 or more; --repeat 6 would see 0.05')
    expect(readFileSync(summary, 'utf8')).toContain('⚠️ This step could only see drops of 0.11 or more; --repeat 6 would see 0.05.')
    // piped: every field docs/scripting.md documents, detectable after the file's path and its staleness
    await plan({status: 'succeeded', score: 0.7, count: 2})
    const piped = await e2e.current.amctl([...GATE()])
    expect(fieldCounts(piped.stdout)).toEqual([RUN_FIELDS.length, RUN_FIELDS.length])
    for (const row of runRows(piped.stdout)) {
      expect([row['baseline file'], row.stale]).toEqual([path, 'false'])
      expect(Number(row.detectable)).toBeCloseTo(0.109832, 5)
    }
  })
})

describe('--repeat auto', () => {
  it('a group is cleared after two launches, the other after one: two launches, each group says when', async () => {
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.72, count: 5})
    await plan({agent: 'codex', status: 'succeeded', score: 0.64, count: 1})
    await plan({agent: 'codex', status: 'succeeded', score: 0.74, count: 1})
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl([...GATE(), '--repeat', 'auto', '--max-drop', '0.1', '--json']),
    )
    expect(r.exitCode, r.stderr).toBe(0)
    expect(launchesOf(requests)).toBe(2)
    const doc = jsonDoc(r)
    expect(doc.launches).toHaveLength(2)
    expect(group(doc, 'claude-code')).toMatchObject({verdict: 'passed', decidedAt: 1, k: 1})
    expect(group(doc, 'codex')).toMatchObject({verdict: 'passed', decidedAt: 2, k: 2, score: 0.69})
    expect(lines(r.stderr)).toContainEqual(
      expect.stringMatching(
        /^… launch 1 of at most 5 \(--repeat auto\): 1 of 2 groups decided; launching again for es_acme_checkout codex \/ gpt-5$/,
      ),
    )
  })

  it('a collapse is decided after one launch: regressed, exit 10, no second launch', async () => {
    await plan({agent: 'codex', status: 'succeeded', score: 0.3, count: 1})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.7, count: 1})
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl([...GATE(), '--repeat', 'auto', '--max-drop', '0.1', '--json']),
    )
    expect(r.exitCode, r.stderr).toBe(10)
    expect(launchesOf(requests)).toBe(1)
    expect(group(jsonDoc(r), 'codex')).toMatchObject({verdict: 'regressed', decidedAt: 1, k: 1})
  })

  it('undecided at --max-repeat: inconclusive, a warning and a ::warning, exit 0; with --fail-inconclusive exit 10', async () => {
    const inconclusive = async (extra: string[]) => {
      await plan({agent: 'claude-code', status: 'succeeded', score: 0.72, count: 2})
      await plan({agent: 'codex', status: 'succeeded', score: 0.64, count: 2})
      return e2e.current.amctl([
        ...GATE(),
        '--repeat',
        'auto',
        '--max-repeat',
        '2',
        '--max-drop',
        '0.1',
        '--json',
        '--ci-annotations',
        ...extra,
      ])
    }
    const r = await inconclusive([])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(group(jsonDoc(r), 'codex')).toMatchObject({verdict: 'inconclusive', decidedAt: null, k: 2})
    expect(lines(r.stderr)).toContain(
      'warning: inconclusive: es_acme_checkout codex / gpt-5 undecided after 2 launches (--max-repeat 2): neither regressed nor cleared of --max-drop 0.1; --fail-inconclusive fails the step on it',
    )
    expect(lines(r.stderr).filter((line) => line.startsWith('::warning title=amctl%3A group es_acme_checkout codex / gpt-5'))).toHaveLength(
      1,
    )
    const strict = await inconclusive(['--fail-inconclusive'])
    expect(strict.exitCode, strict.stderr).toBe(10)
    expect(untimed(lines(strict.stderr).find((line) => line.startsWith('✗')))).toMatch(
      /^✗ 1 of 2 groups did not pass: es_acme_checkout codex \/ gpt-5 .*inconclusive after 2 launches \(--max-repeat 2\) \(--fail-inconclusive\)$/,
    )
  })

  it('without --max-drop, or without a baseline of many runs: exit 2, nothing launched', async () => {
    const [r, requests] = await requestsOf(e2e.current, () => e2e.current.amctl([...GATE(), '--repeat', 'auto']))
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: --repeat auto needs --max-drop D > 0, the smallest drop that matters/)
    expect(requests).toEqual([])
    const previous = await e2e.current.amctl([
      'evals',
      'run',
      EVAL_SET,
      '--org',
      ORG,
      '--wait',
      '--repeat',
      'auto',
      '--baseline',
      'previous',
      '--max-drop',
      '0.1',
    ])
    expect(previous.exitCode).toBe(2)
    expect(previous.stderr).toMatch(/^error: --repeat auto judges after each launch against a baseline of many runs/)
  })
})
