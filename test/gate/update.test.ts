import {readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync, chmodSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {normalDraws} from '../../bench/random.mjs'
import {baselineFileText, newBaselineFile, type ReadBaseline, readBaselineFile, updateBaselineFile} from '../../src/gate/baseline-file.js'
import type {FileChoice} from '../../src/gate/rules.js'
import {loadQuantile, loadVerdictDistributions, type NormalQuantile, type Quantile} from '../../src/gate/stats.js'
import {baselineChanges, type UpdateResult, updateBaseline, updateText} from '../../src/gate/update.js'
import {updateWarnings} from '../../src/gate/words.js'
import {baselineAt} from '../helpers/baseline.js'
import {tempDir} from '../helpers/temp.js'

// --update-baseline: the step's runs added to the file that was read, where it was read, under its
// lock; a failure said, never thrown (issue 37 items 2–5).

let quantile: Quantile
let normalQuantile: NormalQuantile
beforeAll(async () => {
  quantile = await loadQuantile()
  normalQuantile = (await loadVerdictDistributions()).normalQuantile
})

const NOW = Date.parse('2026-11-05T00:00:00.000Z')
/** An update that did nothing (updateWarnings reads only its changes). */
const emptyUpdate: UpdateResult = {
  path: 'b.json',
  updated: false,
  added: 0,
  addedTo: [],
  outcomes: 0,
  started: [],
  dropped: 0,
  leftOut: [],
  changes: [],
}
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString()
const run = (id: string, score: number | null, minute: number, status = 'succeeded'): Run =>
  ({id, status, evalSetId: 'es_1', batchId: 'b', createdAt: at(minute), forkedFrom: null, agent: 'codex', model: 'gpt-5', score}) as Run

/** A file of three codex runs at `path`, and the step's choice of it as read (as --baseline-file reads it). */
function saved(path: string, org = 'acme'): FileChoice {
  const {file} = newBaselineFile(
    {org, evalSetId: 'es_1', savedAt: at(5), keep: 10},
    [run('r0', 0.7, 0), run('r1', 0.72, 1), run('r2', 0.68, 2)],
    quantile,
    NOW,
  )
  writeFileSync(path, baselineFileText(file))
  return choiceOf(path)
}

function choiceOf(path: string): FileChoice {
  const {file, outcomes, source} = readBaselineFile(path, NOW)
  return {kind: 'file', path, file, outcomes, source, maxAgeS: 0, update: true, confidence: 0.95}
}

describe('updateBaseline', () => {
  it("adds the step's runs, scored and failed, and says so in one line", () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const update = updateBaseline(saved(path), [run('s1', 0.71, 10), run('s2', null, 11, 'failed')], NOW, normalQuantile)
    expect(update).toMatchObject({updated: true, added: 1, outcomes: 1, addedTo: [{group: 'codex / gpt-5', runs: 1}]})
    expect(baselineAt(path).groups[0]).toMatchObject({runs: [{id: 'r0'}, {id: 'r1'}, {id: 'r2'}, {id: 's1'}], failed: [{id: 's2'}]})
    expect(updateText(update, 10).line).toBe(
      `--update-baseline: added 1 run to ${path}: 1 to codex / gpt-5; 1 failed or cancelled run recorded (the failure rate)`,
    )
  })

  it("two steps that read the same file both land: the second reads the first one's update again under the lock (item 2)", () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const first = saved(path)
    const second = choiceOf(path)
    expect(updateBaseline(first, [run('s1', 0.71, 10)], NOW, normalQuantile).updated).toBe(true)
    expect(updateBaseline(second, [run('s2', 0.69, 11)], NOW, normalQuantile).updated).toBe(true)
    expect(baselineAt(path).groups[0].runs.map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 's1', 's2'])
  })

  it('a file truncated or made invalid during the step: not updated, said as the error, the file left as it is (item 3)', () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const choice = saved(path)
    writeFileSync(path, '{"version": 2, "org"')
    const update = updateBaseline(choice, [run('s1', 0.71, 10)], NOW, normalQuantile)
    expect(update.updated).toBe(false)
    expect(update.error).toEqual({
      code: 'invalid_request',
      message: `baseline file ${path}: not JSON at line 1, column 21: a colon expected`,
    })
    expect(updateText(update, 10).line).toBe(
      `--update-baseline: ${path} was not updated: baseline file ${path}: not JSON at line 1, column 21: a colon expected`,
    )
    expect(readFileSync(path, 'utf8')).toBe('{"version": 2, "org"')
  })

  it('a link re-pointed during the step: the file read is updated, keeping its mode; the new target is left alone (item 4)', () => {
    const dir = tempDir('amctl-update-')
    const real = join(dir, 'real.json')
    saved(real)
    chmodSync(real, 0o600)
    writeFileSync(join(dir, 'secret'), 'secret\n')
    symlinkSync(real, join(dir, 'b.json'))
    const choice = choiceOf(join(dir, 'b.json'))
    unlinkSync(join(dir, 'b.json'))
    symlinkSync(join(dir, 'secret'), join(dir, 'b.json'))
    expect(updateBaseline(choice, [run('s1', 0.71, 10)], NOW, normalQuantile).updated).toBe(true)
    expect(baselineAt(real).groups[0].runs.map((r) => r.id)).toContain('s1')
    expect(statSync(real).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'secret'), 'utf8')).toBe('secret\n')
  })

  it("a file swapped for another organization's during the step: not updated, said so (item 5)", () => {
    const dir = tempDir('amctl-update-')
    const path = join(dir, 'b.json')
    const choice = saved(path)
    saved(join(dir, 'globex.json'), 'globex')
    renameSync(join(dir, 'globex.json'), path)
    const before = readFileSync(path, 'utf8')
    const update = updateBaseline(choice, [run('s1', 0.71, 10)], NOW, normalQuantile)
    expect(update.error?.message).toBe(
      `${path} now holds runs of organization globex, not acme as when the step read it; it was left as it is`,
    )
    expect(readFileSync(path, 'utf8')).toBe(before)
  })

  it('nothing new: unchanged, and the file not rewritten', () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const choice = saved(path)
    const before = statSync(path).ino
    const update = updateBaseline(choice, [run('r1', 0.72, 1)], NOW, normalQuantile)
    expect(update).toMatchObject({updated: false, added: 0})
    expect(update.error).toBeUndefined()
    expect(statSync(path).ino).toBe(before)
  })
})

// --update-baseline says when a group it changed moved level or fails more (issue 35 §3): the
// change-point test of `evals stats` and the gate's failure test, at the step's confidence.
describe('what an update takes in: a change of level, a rise of failures', () => {
  /** `n` scores of N(mean, sd) from `seed` (bench/random.mjs), 2 decimals as scores are. */
  const normal = (seed: number, n: number, mean: number, sd: number): number[] => {
    const z = normalDraws(seed)
    return Array.from({length: n}, () => Math.round((mean + sd * z()) * 100) / 100)
  }
  /** A file of es_1 holding one codex / gpt-5 group: these scored runs (minutes 0, 1, …) and failed runs. */
  const fileOf = (scores: number[], failed = 0, keep = 50): ReadBaseline => {
    const runs = scores.map((score, i) => run(`f${i}`, score, i))
    const failures = Array.from({length: failed}, (_, i) => run(`x${i}`, null, i, 'failed'))
    return {
      file: newBaselineFile({org: 'acme', evalSetId: 'es_1', savedAt: at(0), keep}, [...runs, ...failures], quantile, NOW).file,
      outcomes: true,
    }
  }
  /** The changes an update of `read` with `runs` takes in, at 0.95. */
  const changesOf = (read: ReadBaseline, runs: Run[]) => {
    const update = updateBaselineFile(read, runs, at(59), NOW)
    return {file: update.file, changes: baselineChanges(read, update.file, 0.95, normalQuantile)}
  }

  it('a file of 20 runs at 0.84 ± 0.02 and a step of 5 runs at 0.77: the level moved, at the first of them, 3.5 sd; said in one sentence', () => {
    const read = fileOf(normal(1, 20, 0.84, 0.02))
    const step = [0.77, 0.76, 0.78, 0.77, 0.77].map((score, i) => run(`s${i}`, score, 30 + i))
    const {changes} = changesOf(read, step)
    expect(changes).toHaveLength(1)
    const [change] = changes
    expect(change).toMatchObject({kind: 'level', group: 'codex / gpt-5', agent: 'codex', model: 'gpt-5', runId: 's0', createdAt: at(30)})
    if (change.kind !== 'level') throw new Error('not a level')
    const before = read.file.groups[0]
    expect(change.from).toBe(before.mean)
    expect(change.to).toBe(0.77)
    expect(change.delta).toBe(Math.round((0.77 - before.mean) * 1e6) / 1e6)
    expect(change.sd).toBe(before.sd)
    expect(change.sds).toBeCloseTo(Math.abs(change.delta) / before.sd, 3)
    expect(updateWarnings({...emptyUpdate, changes})).toEqual([
      `codex / gpt-5 moved from ${before.mean.toFixed(2)} to 0.77 at s0 (−${Math.abs(change.delta).toFixed(2)}, ${change.sds.toFixed(1)} sd): this update makes it the baseline`,
    ])
  })

  it('a step of the same level, or of fewer runs of the new level than a level needs (5): no change', () => {
    const read = fileOf(normal(2, 20, 0.84, 0.02))
    expect(changesOf(read, [run('s0', 0.84, 30), run('s1', 0.85, 31)]).changes).toEqual([])
    // (the level test reads the scores: a step that added none tests nothing)
    expect(changesOf(read, [run('s0', null, 30, 'cancelled')]).changes).toEqual([])
  })

  it('failures: one of an agent that never failed in 30 runs is beyond its rate (P = 1/32); one of an agent failing 5 of 30 is not (6/32)', () => {
    const steady = changesOf(fileOf(normal(3, 30, 0.84, 0.02)), [run('s0', null, 40, 'failed')])
    expect(steady.changes).toEqual([
      {
        kind: 'failures',
        group: 'codex / gpt-5',
        agent: 'codex',
        model: 'gpt-5',
        from: 0,
        to: Math.round((1 / 31) * 1e6) / 1e6,
        delta: Math.round((1 / 31) * 1e6) / 1e6,
        failed: 1,
        finished: 31,
        before: {failed: 0, finished: 30},
        added: {failed: 1, finished: 1},
        p: Math.round((1 / 32) * 1e6) / 1e6,
      },
    ])
    expect(updateWarnings({...emptyUpdate, changes: steady.changes})).toEqual([
      'codex / gpt-5 fails 1 of its 31 runs, 0 of 30 before this update: this update makes it the baseline',
    ])
    // 5 failed of 30 finished (25 scored): one more failure is within its rate
    expect(changesOf(fileOf(normal(4, 25, 0.84, 0.02), 5), [run('s0', null, 40, 'failed')]).changes).toEqual([])
    // a file of version 1 records no outcomes: no rate to judge against
    expect(changesOf({...fileOf(normal(3, 30, 0.84, 0.02)), outcomes: false}, [run('s0', null, 40, 'failed')]).changes).toEqual([])
  })
})
