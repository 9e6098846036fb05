import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'vitest'
import EvalsComment from '../../../src/commands/evals/comment.js'
import EvalsRun from '../../../src/commands/evals/run.js'
import {type BaselineFile, baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {runCommand} from '../../helpers/cli.js'
import {type FakeApi, reply} from '../../helpers/fake-api.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'
import {tempDir} from '../../helpers/temp.js'

/**
 * The pull-request comments of the six cases (issue 36 §3), each made as a user's step
 * makes it: `amctl evals run es_acme_search --wait --baseline-file F --json` against a fake API
 * (its launches answering one run per agent and model, their outcomes planned per launch), then
 * `amctl evals comment` of that --json document — the body the Action posts. The world: a
 * baseline file of 30 runs each of claude-code / claude-sonnet-4-5 (mean 0.84, sd about 0.02,
 * one cancelled, none failed) and codex / gpt-5 (mean 0.72, sd about 0.04, 5 failed and 1
 * cancelled), saved a day before the step.
 */

export const EVAL_SET = 'es_acme_search'
export const CLAUDE = {agent: 'claude-code', model: 'claude-sonnet-4-5'} as const
export const CODEX = {agent: 'codex', model: 'gpt-5'} as const
const TARGETS = [CLAUDE, CODEX] as const
const DAY = 86_400_000

/** Scores of mean `mean` and sample sd close to `sd`, deterministic: mean ± sd alternately, then a small wobble. */
function scoresAround(mean: number, sd: number, n: number): number[] {
  return Array.from({length: n}, (_, i) => Number((mean + (i % 2 === 0 ? sd : -sd) * (1 + ((i % 3) - 1) * 0.1)).toFixed(4)))
}

/** The baseline file of the world, its newest run `newestDaysAgo` days before the step. */
export function baselineFile(dir: string, newestDaysAgo = 1): string {
  const at = (i: number, n: number) => new Date(FAKE_WALL_START - (newestDaysAgo + (n - 1 - i) * 0.5) * DAY).toISOString()
  const group = (target: (typeof TARGETS)[number], mean: number, sd: number, failed: number, cancelled: number) => {
    const runs = scoresAround(mean, sd, 30).map((score, i) => ({id: `run_${target.agent}_${i + 1}`, score, createdAt: at(i, 30)}))
    const outcome = (kind: string, n: number) =>
      Array.from({length: n}, (_, i) => ({id: `run_${target.agent}_${kind}_${i + 1}`, createdAt: at(3 + i * 5, 30)}))
    return {
      ...target,
      ...groupStats(runs),
      runs,
      setAside: [],
      failed: outcome('failed', failed),
      cancelled: outcome('cancelled', cancelled),
    }
  }
  const file: BaselineFile = {
    version: 2,
    org: 'acme',
    evalSetId: EVAL_SET,
    savedAt: new Date(FAKE_WALL_START - newestDaysAgo * DAY).toISOString(),
    keep: 30,
    groups: [group(CLAUDE, 0.84, 0.02, 0, 1), group(CODEX, 0.72, 0.04, 5, 1)],
  }
  const path = join(dir, 'search-baseline.json')
  writeFileSync(path, baselineFileText(file))
  return path
}

/** What a launch's run of a target ends as: a score (succeeded), or failed or cancelled. */
export type Planned = number | 'failed' | 'cancelled'

/** A case: what each launch's runs end as (by launch, then claude, codex), the flags beyond the file, the exit. */
export interface CommentCase {
  name: string
  plan: (launch: number) => readonly [Planned, Planned] | 'error'
  flags: string[]
  exit: number
  /** the file's newest run, in days before the step (default 1) */
  newestDaysAgo?: number
}

export const CASES: readonly CommentCase[] = [
  {name: 'regressed', plan: () => [0.77, 0.73], flags: [], exit: 10},
  {name: 'flaky', plan: (n) => (n === 1 ? [0.84, 'failed'] : [0.85, 0.71]), flags: [], exit: 0},
  {
    name: 'inconclusive',
    plan: () => [0.805, 0.72],
    flags: ['--repeat', 'auto', '--max-repeat', '3', '--max-drop', '3sd'],
    exit: 0,
  },
  {name: 'failed-beyond-rate', plan: () => ['failed', 0.72], flags: [], exit: 10},
  {name: 'stale', plan: () => [0.84, 0.72], flags: ['--baseline-max-age', '1d'], exit: 0, newestDaysAgo: 3},
  // the relaunch for codex's failed run answers 500
  {name: 'error', plan: (n) => (n === 1 ? [0.84, 'failed'] : 'error'), flags: [], exit: 1},
]

/** Serves `plan`: each launch answers batch b_N and one run per target; the run list holds every run launched so far. */
function serve(api: FakeApi, plan: CommentCase['plan']): void {
  const runs: object[] = []
  let launches = 0
  api.stub(`POST /orgs/acme/eval-sets/${EVAL_SET}/run`, () => {
    launches++
    const planned = plan(launches)
    if (planned === 'error') return reply(500, {error: {code: 'internal', message: 'the launch failed'}})
    const ids = TARGETS.map((t) => `run_${launches}_${t.agent}`)
    TARGETS.forEach((target, i) => {
      const outcome = planned[i]
      runs.unshift({
        id: ids[i],
        status: typeof outcome === 'number' ? 'succeeded' : outcome,
        evalSetId: EVAL_SET,
        batchId: `b_${launches}`,
        createdAt: new Date(FAKE_WALL_START + launches * 60_000 + i).toISOString(),
        forkedFrom: null,
        ...target,
        score: typeof outcome === 'number' ? outcome : null,
      })
    })
    return reply(200, {batchIds: [`b_${launches}`], runIds: ids})
  })
  api.stub('GET /orgs/acme/runs', () => reply(200, {items: runs, nextCursor: null}))
}

/** The step of `c`: its --json document, the --summary it wrote beside it, and the directory of both and of the baseline file. */
export async function runCase(api: FakeApi, c: CommentCase): Promise<{json: string; summary: string; stderr: string; dir: string}> {
  const dir = tempDir('amctl-comment-')
  const file = baselineFile(dir, c.newestDaysAgo)
  const summary = join(dir, 'summary.md')
  serve(api, c.plan)
  const r = await runCommand(
    EvalsRun,
    [EVAL_SET, '--org', 'acme', '--wait', '--baseline-file', file, '--summary', summary, '--json', ...c.flags],
    {env: api.env()},
  )
  expect(r.exitCode, `${c.name}: ${r.stderr}`).toBe(c.exit)
  return {json: r.stdout, summary: readFileSync(summary, 'utf8'), stderr: r.stderr, dir}
}

/** The comment `amctl evals comment -` prints for a step's --json document. */
export async function commentOf(json: string, env: Record<string, string> = {}): Promise<string> {
  const r = await runCommand(EvalsComment, ['-'], {stdin: json, env})
  expect(r.exitCode, r.stderr).toBe(0)
  return r.stdout
}
