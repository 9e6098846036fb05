import {readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync, chmodSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {baselineFileText, newBaselineFile, readBaselineFile} from '../../src/gate/baseline-file.js'
import type {FileChoice} from '../../src/gate/rules.js'
import {loadQuantile, type Quantile} from '../../src/gate/stats.js'
import {updateBaseline, updateText} from '../../src/gate/update.js'
import {baselineAt} from '../helpers/baseline.js'
import {tempDir} from '../helpers/temp.js'

// --update-baseline: the step's runs added to the file that was read, where it was read, under its
// lock; a failure said, never thrown (issue 37 items 2–5).

let quantile: Quantile
beforeAll(async () => {
  quantile = await loadQuantile()
})

const NOW = Date.parse('2026-11-05T00:00:00.000Z')
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
    const update = updateBaseline(saved(path), [run('s1', 0.71, 10), run('s2', null, 11, 'failed')], NOW)
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
    expect(updateBaseline(first, [run('s1', 0.71, 10)], NOW).updated).toBe(true)
    expect(updateBaseline(second, [run('s2', 0.69, 11)], NOW).updated).toBe(true)
    expect(baselineAt(path).groups[0].runs.map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 's1', 's2'])
  })

  it('a file truncated or made invalid during the step: not updated, said as the error, the file left as it is (item 3)', () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const choice = saved(path)
    writeFileSync(path, '{"version": 2, "org"')
    const update = updateBaseline(choice, [run('s1', 0.71, 10)], NOW)
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
    expect(updateBaseline(choice, [run('s1', 0.71, 10)], NOW).updated).toBe(true)
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
    const update = updateBaseline(choice, [run('s1', 0.71, 10)], NOW)
    expect(update.error?.message).toBe(
      `${path} now holds runs of organization globex, not acme as when the step read it; it was left as it is`,
    )
    expect(readFileSync(path, 'utf8')).toBe(before)
  })

  it('nothing new: unchanged, and the file not rewritten', () => {
    const path = join(tempDir('amctl-update-'), 'b.json')
    const choice = saved(path)
    const before = statSync(path).ino
    const update = updateBaseline(choice, [run('r1', 0.72, 1)], NOW)
    expect(update).toMatchObject({updated: false, added: 0})
    expect(update.error).toBeUndefined()
    expect(statSync(path).ino).toBe(before)
  })
})
