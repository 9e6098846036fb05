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
/** when a file is read or written: after every date the tests give it */
const NOW = Date.parse('2026-11-05T00:00:00.000Z')
/** A new file of `runs` (its runs a file can hold). */
const made = (h: typeof head, runs: Run[]) => newBaselineFile(h, runs, quantile, NOW).file

/** The problem parseBaselineFile names for `text` (exit 2), or undefined. */
function problem(text: string): string | undefined {
  try {
    parseBaselineFile(text, 'base.json', NOW)
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
    const file = made(head, runs)
    expect(file).toMatchObject({version: 2, org: 'acme', evalSetId: 'es_1', keep: 5})
    expect(file.groups.map((g) => [g.agent, g.model])).toEqual([
      ['claude', 'claude-model'],
      ['codex', 'codex-model'],
      [null, null],
    ])
    const [claude, codex] = file.groups
    expect(claude.runs.map((r) => r.score)).toEqual([0.8, 0.82])
    expect(claude).toMatchObject({mean: 0.81, sd: 0.014142})
    // its failed run is its failure rate's (the run without a score is no outcome of either kind)
    expect(claude.failed).toEqual([{id: runs[10].id, createdAt: at(4)}])
    expect(claude.cancelled).toEqual([])
    // the newest 5 of 7, oldest first
    expect(codex.runs.map((r) => r.score)).toEqual([0.68, 0.71, 0.69, 0.7, 0.73])
    expect(codex.runs.map((r) => r.createdAt)).toEqual([2, 3, 4, 5, 6].map(at))
    expect(codex.mean).toBe(0.702)
    expect(codex.setAside).toEqual([])
  })

  it('sets aside an outlier by the rule of --baseline history, and records it', () => {
    const scores = [0.7, 0.71, 0.69, 0.7, 0.72, 0.68, 0.7, 0.1]
    const file = made(
      {...head, keep: 20},
      scores.map((s, i) => run('codex', s, i)),
    )
    const [group] = file.groups
    expect(group.runs).toHaveLength(7)
    expect(group.setAside.map((r) => r.score)).toEqual([0.1])
    expect(group.mean).toBe(0.7)
  })
})

describe('the text of a file', () => {
  const saved = made(
    head,
    [0.7, 0.72, 0.68, 0.71, 0.69].flatMap((s, i) => [run('codex', s, i), run('claude', s + 0.1, i)]),
  )
  const file = (): BaselineFile => structuredClone(saved)

  it('one stable form: members in order, one run a line; read back it is the same file', () => {
    const text = baselineFileText(file())
    const lines = text.split('\n')
    expect(lines.slice(0, 7)).toEqual([
      '{',
      '  "version": 2,',
      '  "org": "acme",',
      '  "evalSetId": "es_1",',
      '  "savedAt": "2026-11-02T00:00:00.000Z",',
      '  "keep": 5,',
      '  "groups": [',
    ])
    const runLines = lines.filter((line) => line.includes('"id": "run_'))
    expect(runLines).toHaveLength(10)
    for (const line of runLines) expect(line).toMatch(/^ {8}\{"id": "run_\d{4}", "score": [\d.]+, "createdAt": "[^"]+"\},?$/)
    expect(parseBaselineFile(text, 'base.json', NOW)).toEqual({file: file(), outcomes: true})
    expect(baselineFileText(parseBaselineFile(text, 'base.json', NOW).file)).toBe(text)
  })

  it('an update changes only the lines of the runs that came and went, savedAt, the mean and sd (and a comma)', () => {
    const before = file()
    const codex = before.groups.find((g) => g.agent === 'codex')
    const update = updateBaselineFile({file: before, outcomes: true}, [run('codex', 0.75, 30)], '2026-11-03T00:00:00.000Z', NOW)
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
        made(
          head,
          [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
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
    ['not JSON', () => '{"version": 1,', /^baseline file base\.json: not JSON at line 1, column 15: a member name expected$/],
    ['not an object', () => '[1, 2]', /not a baseline file: the document is not a JSON object$/],
    ['another version', () => text((f) => (f.version = 3)), /^baseline file base\.json: version 3 is not one this amctl reads \(1 or 2\)$/],
    ['no version', () => text((f) => delete f.version), /version undefined is not one this amctl reads/],
    [
      'a score above 1',
      () => text((f) => (f.groups[0].runs[1].score = 1.2)),
      /^baseline file base\.json: groups\[0\]\.runs\[1\]\.score is not a score from 0 to 1: 1\.2$/,
    ],
    [
      'a score that is text',
      () => text((f) => (f.groups[0].runs[0].score = '0.7')),
      /groups\[0\]\.runs\[0\]\.score is not a score from 0 to 1: text of 3 characters$/,
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
      /groups\[1\] is codex \/ codex-model again \(as groups\[0\]\)/,
    ],
    ['an empty org', () => text((f) => (f.org = '')), /"org" is not an organization: ""$/],
  ])('%s', (_name, make, expected) => {
    expect(problem(make())).toMatch(expected)
  })

  it('a missing file, or a directory, is exit 2 too', () => {
    const dir = tempDir('amctl-baseline-file-')
    expect(() => readBaselineFile(join(dir, 'none.json'), NOW)).toThrow(
      `baseline file ${join(dir, 'none.json')}: no such file (make one with \`amctl evals baseline save\`)`,
    )
    mkdirSync(join(dir, 'sub'))
    expect(() => readBaselineFile(join(dir, 'sub'), NOW)).toThrow(/: it is a directory$/)
    writeFileSync(join(dir, 'bad.json'), '{')
    expect(() => readBaselineFile(join(dir, 'bad.json'), NOW)).toThrow(UsageError)
  })
})

describe('--update-baseline', () => {
  it('adds every succeeded, scored run of the eval set to its group, starts a new group, keeps the newest `keep`, says what it added', () => {
    const before = made(
      head,
      [0.7, 0.72, 0.68, 0.71, 0.69].map((s, i) => run('codex', s, i)),
    )
    const step = [
      run('codex', 0.5, 20),
      run('codex', 0.52, 21),
      run('gemini', 0.6, 20),
      run('codex', null, 22),
      run('codex', 0.1, 23, {status: 'failed'}),
      run('codex', 0.9, 24, {evalSetId: 'es_other'}),
    ]
    const {file, added, started, dropped, outcomes} = updateBaselineFile(
      {file: before, outcomes: true},
      step,
      '2026-11-03T00:00:00.000Z',
      NOW,
    )
    expect(file.savedAt).toBe('2026-11-03T00:00:00.000Z')
    const codex = file.groups.find((g) => g.agent === 'codex')
    // regressed scores come in too: the default branch's runs are the accepted state
    expect(codex?.runs.map((r) => r.score)).toEqual([0.68, 0.71, 0.69, 0.5, 0.52])
    expect(codex?.mean).toBe(0.62)
    expect(file.groups.find((g) => g.agent === 'gemini')?.runs.map((r) => r.score)).toEqual([0.6])
    expect(added).toEqual([
      {group: 'codex / codex-model', runs: 2},
      {group: 'gemini / gemini-model', runs: 1},
    ])
    expect(started).toEqual(['gemini / gemini-model'])
    expect(dropped).toBe(2)
    // the failed run is recorded, newer than the group's oldest kept run: its failure rate
    expect(outcomes).toBe(1)
    expect(codex?.failed.map((r) => r.createdAt)).toEqual([at(23)])
    // the same runs again (a re-run of the step): nothing added twice
    const again = updateBaselineFile({file, outcomes: true}, step, '2026-11-04T00:00:00.000Z', NOW)
    expect(again.added).toEqual([])
    expect(again.outcomes).toBe(0)
    expect(again.file.groups).toEqual(file.groups)
  })

  it('writes atomically, mode 0644, and what it wrote reads back', () => {
    const dir = tempDir('amctl-baseline-file-')
    const path = join(dir, 'base.json')
    const file = made(
      head,
      [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
    )
    writeBaselineFile(path, file)
    expect(statSync(path).mode & 0o777).toBe(0o644)
    expect(readBaselineFile(path, NOW).file).toEqual(file)
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
        made(
          head,
          [0.7, 0.72, 0.68, 0.1].map((s, i) => run('codex', s, i)),
        ),
      ),
    )
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true)
    for (const change of [(f: any) => (f.groups[0].runs[0].score = 1.5), (f: any) => (f.version = 3), (f: any) => (f.extra = true)]) {
      const bad = structuredClone(written)
      change(bad)
      expect(validate(bad)).toBe(false)
      expect(problem(JSON.stringify(bad))).toBeDefined()
    }
  })
})

describe('a file no server string can break: what is written is what the reader takes (issue 37 item 1)', () => {
  it('an agent of "", display names that collide, "(no agent)" beside none: each its own group, and the file reads back', () => {
    const runs = [
      ...[0.7, 0.71, 0.72].map((s, i) => run('', s, i, {model: 'm'})),
      ...[0.6, 0.61, 0.62].map((s, i) => run('a / b', s, i, {model: 'c'})),
      ...[0.5, 0.51, 0.52].map((s, i) => run('a', s, i, {model: 'b / c'})),
      ...[0.4, 0.41, 0.42].map((s, i) => run('(no agent)', s, i, {model: '(no model)'})),
      ...[0.3, 0.31, 0.32].map((s, i) => run(null, s, i)),
    ]
    const file = made({...head, keep: 10}, runs)
    expect(file.groups).toHaveLength(5)
    expect(parseBaselineFile(baselineFileText(file), 'base.json', NOW).file).toEqual(file)
    const update = updateBaselineFile(
      {file, outcomes: true},
      [run('a / b', 0.63, 9, {model: 'c'}), run('a', 0.53, 9, {model: 'b / c'})],
      at(10),
      NOW,
    )
    expect(update.added).toEqual([
      {group: 'a / b / c', runs: 1},
      {group: 'a / b / c', runs: 1},
    ])
    // by agent, then model: "", "(no agent)", "a", "a / b", then none
    expect(parseBaselineFile(baselineFileText(update.file), 'base.json', NOW).file.groups.map((g) => [g.agent, g.runs.length])).toEqual([
      ['', 3],
      ['(no agent)', 3],
      ['a', 4],
      ['a / b', 4],
      [null, 3],
    ])
  })

  it('an ID of spaces, a createdAt past year 9999 or in the future: left out, and said so; the rest is written', () => {
    const runs = [
      ...[0.7, 0.71, 0.72].map((s, i) => run('codex', s, i)),
      run('codex', 0.7, 5, {id: ' '}),
      run('codex', 0.7, 6, {createdAt: '+010000-01-01T00:00:00.000Z'}),
      run('codex', 0.7, 7, {createdAt: '2099-01-01T00:00:00.000Z'}),
    ]
    const {file, leftOut} = newBaselineFile(head, runs, quantile, NOW)
    expect(file.groups[0].runs).toHaveLength(3)
    expect(leftOut.map((r) => r.problem)).toEqual([
      'its ID is not a run ID: text of 1 character',
      'its createdAt is past the year 9999: +010000-01-01T00:00:00.000Z',
      'its createdAt is in the future: 2099-01-01T00:00:00.000Z',
    ])
    expect(parseBaselineFile(baselineFileText(file), 'base.json', NOW).file).toEqual(file)
    const update = updateBaselineFile({file, outcomes: true}, runs.slice(3), at(9), NOW)
    expect(update.leftOut).toHaveLength(3)
    expect(update.file.groups).toEqual(file.groups)
  })
})

describe('what a reader of the file sees is what amctl reads (issue 37 items 7–10)', () => {
  const good = () =>
    baselineFileText(
      made(
        head,
        [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
      ),
    )

  it('text that is not JSON is named by where it goes wrong, never by what it holds (item 7)', () => {
    expect(problem('ghp_SECRETSECRETSECRET')).toBe('baseline file base.json: not JSON at line 1, column 1: an unexpected character')
    expect(problem(good().replace('"org": "acme"', '"org": "acme" // ghp_SECRET'))).toMatch(
      /^baseline file base\.json: not JSON at line 3, column 17: a comment \(JSON has none\)$/,
    )
    expect(problem(good().replace('"org": "acme"', '"org": 7'))).toBe('baseline file base.json: "org" is not an organization: 7')
    expect(problem(good().replace('"org": "acme"', '"org": ""'))).toBe('baseline file base.json: "org" is not an organization: ""')
    expect(problem(good().replace('"org": "acme"', '"org": {"token": "ghp_SECRET"}'))).toBe(
      'baseline file base.json: "org" is not an organization: an object',
    )
  })

  it('a member given twice is refused, where a reviewer reads the first and JSON.parse takes the last (item 8)', () => {
    expect(problem(good().replace(/\n}\n$/, ',\n  "groups": []\n}\n'))).toMatch(
      /^baseline file base\.json: line \d+, column 3: the member "groups" is given twice in one object; give each once$/,
    )
    expect(problem(good().replace('"score": 0.7,', '"score": 0.1, "score": 0.7,'))).toMatch(
      /the member "score" is given twice in one object/,
    )
  })

  it('a date in the future, past a day of clock skew, is refused; a day ahead is a clock, not the future (item 9)', () => {
    expect(problem(good().replace('"savedAt": "2026-11-02T00:00:00.000Z"', '"savedAt": "2099-01-01T00:00:00.000Z"'))).toBe(
      'baseline file base.json: "savedAt" is in the future: 2099-01-01T00:00:00.000Z',
    )
    const ahead = new Date(NOW + 12 * 3600_000).toISOString()
    expect(problem(good().replace(/"createdAt": "[^"]+"/, `"createdAt": "9999-12-31T00:00:00Z"`))).toMatch(
      /groups\[0\]\.runs\[0\]\.createdAt is in the future: 9999-12-31T00:00:00Z$/,
    )
    expect(problem(good().replace(/"createdAt": "[^"]+"/, `"createdAt": "${ahead}"`))).toBeUndefined()
  })

  it('no list longer than a group keeps: 800,000 set-aside runs stop at the 101st, before the file is held (item 10)', () => {
    const f = JSON.parse(good())
    f.groups[0].setAside = Array.from({length: 800_000}, (_, i) => ({id: `r_${i}`, score: 0.7, createdAt: at(0)}))
    expect(problem(JSON.stringify(f))).toMatch(
      /^baseline file base\.json: groups\[0\]\.setAside holds more than 100 runs \(line 1, column \d+\): a group keeps at most 100$/,
    )
    f.groups[0].setAside = f.groups[0].setAside.slice(0, 6)
    expect(problem(JSON.stringify(f))).toBe(
      'baseline file base.json: groups[0] (codex / codex-model) holds 6 setAside runs, more than "keep" 5',
    )
  })
})

describe('a file of version 1: read, its outcomes unknown; updated as version 1', () => {
  it('has no failed or cancelled runs; an update adds the scored runs only, and writes version 1 again', () => {
    const v1 = baselineFileText(
      made(
        head,
        [0.7, 0.72, 0.68].map((s, i) => run('codex', s, i)),
      ),
      1,
    )
    expect(v1).toContain('"version": 1,')
    expect(v1).not.toContain('"failed"')
    const read = parseBaselineFile(v1, 'base.json', NOW)
    expect(read.outcomes).toBe(false)
    expect(read.file.groups[0]).toMatchObject({failed: [], cancelled: []})
    const update = updateBaselineFile(read, [run('codex', 0.71, 10), run('codex', null, 11, {status: 'failed'})], at(12), NOW)
    expect(update.added).toEqual([{group: 'codex / codex-model', runs: 1}])
    expect(update.outcomes).toBe(0)
    expect(parseBaselineFile(baselineFileText(update.file, 1), 'base.json', NOW).outcomes).toBe(false)
    // a version 1 file that names outcomes is not one
    expect(problem(v1.replace('"setAside": []', '"setAside": [],\n      "failed": []'))).toMatch(
      /has a member this amctl does not know: "failed"/,
    )
  })
})
