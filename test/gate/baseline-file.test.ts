import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {diffArrays} from 'diff'
import {beforeAll, describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {UsageError} from '../../src/core/errors.js'
import {
  type BaselineFile,
  baselineFileText,
  newBaselineFile,
  parseBaselineFile,
  readBaselineFile,
  updateBaselineFile,
  writeBaselineFile,
} from '../../src/gate/baseline-file.js'
import {loadQuantile, type Quantile} from '../../src/gate/stats.js'
import {tempDir} from '../helpers/temp.js'

let quantile: Quantile
beforeAll(async () => {
  quantile = await loadQuantile()
})

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString()
let serial = 0
function run(agent: string | null, score: number | null, minute: number, extra: Partial<Run> = {}): Run {
  serial++
  return {
    id: `run_${String(serial).padStart(4, '0')}`,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: 'b_1',
    createdAt: at(minute),
    forkedFrom: null,
    agent,
    model: agent === null ? null : `${agent}-model`,
    score,
    ...extra,
  } as Run
}
const head = {org: 'acme', evalSetId: 'es_1', savedAt: '2026-11-02T00:00:00.000Z', keep: 5}

/** The problem parseBaselineFile names for `text` (exit 2), or undefined. */
function problem(text: string): string | undefined {
  try {
    parseBaselineFile(text, 'base.json')
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).exitCode).toBe(2)
    return (error as Error).message
  }
}

describe('a new baseline file (evals baseline save)', () => {
  it('per agent × model: the succeeded, scored runs of the eval set, the newest `keep`, oldest first, mean and sd', () => {
    const runs = [
      ...[0.7, 0.72, 0.68, 0.71, 0.69, 0.7, 0.73].map((s, i) => run('codex', s, i)),
      run('claude', 0.8, 1),
      run('claude', 0.82, 2),
      run('claude', null, 3),
      run('claude', 0.1, 4, {status: 'failed'}),
      run('claude', 0.9, 5, {evalSetId: 'es_other'}),
      run(null, 0.5, 6),
    ]
    const file = newBaselineFile(head, runs, quantile)
    expect(file).toMatchObject({version: 1, org: 'acme', evalSetId: 'es_1', keep: 5})
    expect(file.groups.map((g) => [g.agent, g.model])).toEqual([
      ['claude', 'claude-model'],
      ['codex', 'codex-model'],
      [null, null],
    ])
    const [claude, codex] = file.groups
    expect(claude.runs.map((r) => r.score)).toEqual([0.8, 0.82])
    expect(claude).toMatchObject({mean: 0.81, sd: 0.014142})
    // the newest 5 of 7, oldest first
    expect(codex.runs.map((r) => r.score)).toEqual([0.68, 0.71, 0.69, 0.7, 0.73])
    expect(codex.runs.map((r) => r.createdAt)).toEqual([2, 3, 4, 5, 6].map(at))
    expect(codex.mean).toBe(0.702)
    expect(codex.setAside).toEqual([])
  })

  it('sets aside an outlier by the rule of --baseline history, and records it', () => {
    const scores = [0.7, 0.71, 0.69, 0.7, 0.72, 0.68, 0.7, 0.1]
    const file = newBaselineFile(
      {...head, keep: 20},
      scores.map((s, i) => run('codex', s, i)),
      quantile,
    )
    const [group] = file.groups
    expect(group.runs).toHaveLength(7)
    expect(group.setAside.map((r) => r.score)).toEqual([0.1])
    expect(group.mean).toBe(0.7)
  })
})

describe('the text of a file', () => {
  const made = newBaselineFile(
    head,
    [0.7, 0.72, 0.68, 0.71, 0.69].flatMap((s, i) => [run('codex', s, i), run('claude', s + 0.1, i)]),
    quantile,
  )
  const file = (): BaselineFile => structuredClone(made)

  it('one stable form: members in order, one run a line; read back it is the same file', () => {
    const text = baselineFileText(file())
    const lines = text.split('\n')
    expect(lines.slice(0, 7)).toEqual([
      '{',
      '  "version": 1,',
      '  "org": "acme",',
      '  "evalSetId": "es_1",',
      '  "savedAt": "2026-11-02T00:00:00.000Z",',
      '  "keep": 5,',
      '  "groups": [',
    ])
    const runLines = lines.filter((line) => line.includes('"id": "run_'))
    expect(runLines).toHaveLength(10)
    for (const line of runLines) expect(line).toMatch(/^ {8}\{"id": "run_\d{4}", "score": [\d.]+, "createdAt": "[^"]+"\},?$/)
    expect(parseBaselineFile(text, 'base.json')).toEqual(file())
    expect(baselineFileText(parseBaselineFile(text, 'base.json'))).toBe(text)
  })

  it('an update changes only the lines of the runs that came and went, savedAt, the mean and sd (and a comma)', () => {
    const before = file()
    const codex = before.groups.find((g) => g.agent === 'codex')
    const update = updateBaselineFile(before, [run('codex', 0.75, 30)], '2026-11-03T00:00:00.000Z')
    // (JSON puts a comma between runs: the line beside an added or dropped run gains or loses it)
    const lines = (f: BaselineFile) =>
      baselineFileText(f)
        .split('\n')
        .map((line) => line.replace(/,$/, ''))
    const changes = diffArrays(lines(before), lines(update.file))
    const removed = changes.filter((c) => c.removed).flatMap((c) => c.value.map((l) => l.trim()))
    const added = changes.filter((c) => c.added).flatMap((c) => c.value.map((l) => l.trim()))
    expect(removed).toEqual([
      '"savedAt": "2026-11-02T00:00:00.000Z"',
      '"mean": 0.7',
      '"sd": 0.015811',
      expect.stringContaining(`"id": "${codex?.runs[0].id}"`),
    ])
    expect(added).toEqual([
      '"savedAt": "2026-11-03T00:00:00.000Z"',
      '"mean": 0.71',
      '"sd": 0.027386',
      expect.stringMatching(/"score": 0\.75/),
    ])
  })
})

describe('a file that is not valid is exit 2, naming the file and what is wrong', () => {
  const good = () =>
    JSON.parse(
      baselineFileText(
        newBaselineFile(
          head,
          [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
          quantile,
        ),
      ),
    )
  const text = (change: (f: any) => void) => {
    const f = good()
    change(f)
    return JSON.stringify(f)
  }

  it('a valid file is read', () => {
    expect(problem(JSON.stringify(good()))).toBeUndefined()
  })

  it.each([
    ['not JSON', () => '{"version": 1,', /^baseline file base\.json: not JSON \(/],
    ['not an object', () => '[1, 2]', /not a baseline file: the document is not a JSON object$/],
    ['another version', () => text((f) => (f.version = 2)), /^baseline file base\.json: version 2 is not one this amctl reads \(1\)$/],
    ['no version', () => text((f) => delete f.version), /version undefined is not one this amctl reads/],
    [
      'a score above 1',
      () => text((f) => (f.groups[0].runs[1].score = 1.2)),
      /^baseline file base\.json: groups\[0\]\.runs\[1\]\.score is not a score from 0 to 1: 1\.2$/,
    ],
    [
      'a score that is text',
      () => text((f) => (f.groups[0].runs[0].score = '0.7')),
      /groups\[0\]\.runs\[0\]\.score is not a score from 0 to 1: "0\.7"$/,
    ],
    [
      'a run listed twice',
      () => text((f) => f.groups[0].setAside.push({...f.groups[0].runs[0]})),
      /^baseline file base\.json: run run_\d+ is listed twice \(groups\[0\]\.runs\[0\] and groups\[0\]\.setAside\[0\]\)$/,
    ],
    [
      'a mean that is not its runs’',
      () => text((f) => (f.groups[0].mean = 0.9)),
      /groups\[0\]\.mean 0\.9 is not the mean of its runs \(0\.7\)/,
    ],
    ['an sd that is not its runs’', () => text((f) => (f.groups[0].sd = 0)), /groups\[0\]\.sd 0 is not the standard deviation of its runs/],
    ['an unknown member', () => text((f) => (f.keeps = 5)), /has a member this amctl does not know: "keeps"/],
    ['a member missing', () => text((f) => delete f.groups[0].setAside), /groups\[0\] has no "setAside"$/],
    ['keep out of range', () => text((f) => (f.keep = 1000)), /"keep" is not a whole number from 3 to 100: 1000$/],
    [
      'more runs than keep',
      () =>
        text((f) => {
          f.keep = 3
          f.groups[0].runs.push({id: 'r_x', score: 0.7, createdAt: at(9)})
        }),
      /holds 4 runs, more than "keep" 3$/,
    ],
    [
      'a date that does not exist',
      () => text((f) => (f.groups[0].runs[0].createdAt = '2026-02-30T00:00:00Z')),
      /createdAt is not an ISO 8601 date-time/,
    ],
    [
      'the same group twice',
      () => text((f) => f.groups.push({...f.groups[0], runs: [], setAside: [], mean: 0, sd: 0})),
      /groups\[1\] is codex \/ codex-model again/,
    ],
    ['an empty org', () => text((f) => (f.org = '')), /"org" is not an organization: ""$/],
  ])('%s', (_name, make, expected) => {
    expect(problem(make())).toMatch(expected)
  })

  it('a missing file, or a directory, is exit 2 too', () => {
    const dir = tempDir('amctl-baseline-file-')
    expect(() => readBaselineFile(join(dir, 'none.json'))).toThrow(
      `baseline file ${join(dir, 'none.json')}: no such file (make one with \`amctl evals baseline save\`)`,
    )
    mkdirSync(join(dir, 'sub'))
    expect(() => readBaselineFile(join(dir, 'sub'))).toThrow(/: it is a directory$/)
    writeFileSync(join(dir, 'bad.json'), '{')
    expect(() => readBaselineFile(join(dir, 'bad.json'))).toThrow(UsageError)
  })
})

describe('--update-baseline', () => {
  it('adds every succeeded, scored run of the eval set to its group, starts a new group, keeps the newest `keep`, says what it added', () => {
    const before = newBaselineFile(
      head,
      [0.7, 0.72, 0.68, 0.71, 0.69].map((s, i) => run('codex', s, i)),
      quantile,
    )
    const step = [
      run('codex', 0.5, 20),
      run('codex', 0.52, 21),
      run('gemini', 0.6, 20),
      run('codex', null, 22),
      run('codex', 0.1, 23, {status: 'failed'}),
      run('codex', 0.9, 24, {evalSetId: 'es_other'}),
    ]
    const {file, added, started, dropped} = updateBaselineFile(before, step, '2026-11-03T00:00:00.000Z')
    expect(file.savedAt).toBe('2026-11-03T00:00:00.000Z')
    const codex = file.groups.find((g) => g.agent === 'codex')
    // regressed scores come in too: the default branch's runs are the accepted state
    expect(codex?.runs.map((r) => r.score)).toEqual([0.68, 0.71, 0.69, 0.5, 0.52])
    expect(codex?.mean).toBe(0.62)
    expect(file.groups.find((g) => g.agent === 'gemini')?.runs.map((r) => r.score)).toEqual([0.6])
    expect([...added]).toEqual([
      ['codex / codex-model', 2],
      ['gemini / gemini-model', 1],
    ])
    expect(started).toEqual(['gemini / gemini-model'])
    expect(dropped).toBe(2)
    // the same runs again (a re-run of the step): nothing added twice
    const again = updateBaselineFile(file, step, '2026-11-04T00:00:00.000Z')
    expect(again.added.size).toBe(0)
    expect(again.file.groups).toEqual(file.groups)
  })

  it('writes atomically, mode 0644, and what it wrote reads back', () => {
    const dir = tempDir('amctl-baseline-file-')
    const path = join(dir, 'base.json')
    const file = newBaselineFile(
      head,
      [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
      quantile,
    )
    writeBaselineFile(path, file)
    expect(statSync(path).mode & 0o777).toBe(0o644)
    expect(readBaselineFile(path)).toEqual(file)
    expect(readFileSync(path, 'utf8')).toBe(baselineFileText(file))
  })
})

describe('schemas/baseline-file.json, the format published to other tools', () => {
  it('accepts the files amctl writes; refuses a score outside 0–1, another version and an unknown member', async () => {
    const {Ajv} = await import('ajv')
    const addFormats = (await import('ajv-formats')).default as unknown as (ajv: InstanceType<typeof Ajv>) => void
    const ajv = new Ajv({allowUnionTypes: true})
    addFormats(ajv)
    const schema = JSON.parse(readFileSync(new URL('../../schemas/baseline-file.json', import.meta.url), 'utf8'))
    const validate = ajv.compile(schema)
    const written = JSON.parse(
      baselineFileText(
        newBaselineFile(
          head,
          [0.7, 0.72, 0.68, 0.1].map((s, i) => run('codex', s, i)),
          quantile,
        ),
      ),
    )
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true)
    for (const change of [(f: any) => (f.groups[0].runs[0].score = 1.5), (f: any) => (f.version = 2), (f: any) => (f.extra = true)]) {
      const bad = structuredClone(written)
      change(bad)
      expect(validate(bad)).toBe(false)
      expect(problem(JSON.stringify(bad))).toBeDefined()
    }
  })
})
