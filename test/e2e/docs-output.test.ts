import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {tableAfter} from '../helpers/markdown.js'
import {tempDir} from '../helpers/temp.js'
import {documentedFields, plain} from '../helpers/tsv.js'
import {parseJunit} from '../gate/reports/fixtures.js'
import {lines} from './commands/util.js'
import {useE2E} from './helpers.js'

// What the docs say the output is, held to the output (issue 32 item 16): the tables of the
// JUnit report's failure types and properties (docs/ci-reference.md) and of the fields of a wait's piped
// rows (docs/scripting.md), each marked `<!-- output:NAME -->`, are read from the documents and
// compared with what the built CLI writes against the dev server; so is every "`cut -fN` is the
// NAME" of the documents. Only the names and positions are compared, never the prose.

const e2e = useE2E({runSeconds: 0})
const plan = (body: Record<string, unknown>) => e2e.current.hook('POST', '/_dev/orgs/acme/outcomes', body)
afterEach(() => e2e.current.hook('DELETE', '/_dev/orgs/acme/outcomes'))

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

interface Amctl {
  exitCode: number | null
  stdout: string
  stderr: string
}

async function amctl(argv: string[], exits: number[] = [0, 10]): Promise<Amctl> {
  const r = await e2e.current.amctl(argv)
  expect(exits, `amctl ${argv.join(' ')}: ${r.stderr}`).toContain(r.exitCode)
  return r
}

const rowsOf = (stdout: string) => lines(stdout).map((line) => line.split('\t'))

/** A field as written is the value: numbers compared as numbers (the row and JSON round alike), a missing value empty. */
function expectField(field: string, value: unknown, what: string): void {
  if (typeof value === 'number') {
    expect(field, what).not.toBe('')
    expect(Number(field), what).toBeCloseTo(value, 6)
  } else expect(field, what).toBe(value === null || value === undefined ? '' : String(value))
}

describe('the fields of a wait’s piped rows (docs/scripting.md) are the fields it writes', () => {
  /** What each documented field of a run's row is, in the run as --json gives it. */
  const RUN_FIELD: Record<string, (run: any) => unknown> = {
    ID: (r) => r.id,
    status: (r) => r.status,
    'eval set': (r) => r.evalSetId,
    created: (r) => r.createdAt,
    agent: (r) => r.agent,
    model: (r) => r.model,
    score: (r) => r.score,
    verdict: (r) => r.verdict,
    'baseline run': (r) => r.baseline?.runId,
    'baseline score': (r) => r.baseline?.score ?? r.baseline?.mean,
    delta: (r) => r.delta,
    margin: (r) => r.margin,
    'baseline sd': (r) => r.baseline?.sd,
    'baseline runs': (r) => r.baseline?.runs,
    'baseline file': (r) => r.baseline?.path,
    stale: (r) => r.baseline?.stale,
    detectable: (r) => r.detectable,
    // (a run judged alone: no --repeat)
    k: () => undefined,
    'decided at': () => undefined,
    confidence: (r) => r.confidence,
    cancelled: (r) => r.outcomes?.cancelled,
    'baseline failure rate': (r) =>
      r.outcomes?.baseline == null ? undefined : Math.round((r.outcomes.baseline.failed / r.outcomes.baseline.finished) * 1e6) / 1e6,
    'failure p': (r) => r.outcomes?.p,
    'detectable failure rate': (r) => r.outcomes?.detectableRate,
  }
  const fields = () => documentedFields('docs/scripting.md', 'output:tsv-run-fields')

  it('every field the table names is the run’s value in that place, whatever the flags', async () => {
    const documented = fields()
    expect([...documented.values()].sort(), 'the names the table uses').toEqual(Object.keys(RUN_FIELD).sort())
    const ids = ['run_acme_0257', 'run_acme_0256', 'run_acme_0251', 'run_acme_0250']
    for (const flags of [[], ['--baseline', 'previous'], ['--baseline', 'run_acme_0001'], ['--baseline', 'history']]) {
      const argv = ['runs', 'watch', ...ids, '--org', 'acme', ...flags]
      const [piped, json] = await Promise.all([amctl(argv), amctl([...argv, '--json'])])
      const runs = JSON.parse(json.stdout).items
      const rows = rowsOf(piped.stdout)
      expect(rows.map((row) => row[0])).toEqual(ids)
      rows.forEach((row, i) => {
        expect(row, `${flags.join(' ')}: a row has every documented field`).toHaveLength(documented.size)
        for (const [position, name] of documented)
          expectField(row[position - 1], RUN_FIELD[name](runs[i]), `${flags.join(' ')}: field ${position} (${name})`)
      })
    }
    // the first fields are the `runs list` row itself
    const listed = rowsOf((await amctl(['runs', 'list', '--org', 'acme', '--limit', '10'])).stdout)
    const watched = rowsOf((await amctl(['runs', 'watch', listed[9][0], '--org', 'acme', '--baseline', 'history'])).stdout)
    expect(watched[0].slice(0, listed[9].length)).toEqual(listed[9])
  })

  it('every "`cut -fN` is the NAME" of the documents names field N of the table', () => {
    const documented = fields()
    const claims = ['docs', join('docs', 'commands')].flatMap((dir) =>
      readdirSync(join(ROOT, dir))
        .filter((file) => file.endsWith('.md'))
        .flatMap((file) =>
          [...read(join(dir, file)).matchAll(/cut -f(\d+)`? (?:is )?the ([a-z]+)/g)].map((m) => ({file, field: Number(m[1]), name: m[2]})),
        ),
    )
    expect(claims.length).toBeGreaterThanOrEqual(4)
    for (const {file, field, name} of claims) expect(documented.get(field), `${file}: cut -f${field} is the ${name}`).toBe(name)
  })

  it('a --repeat group’s row: the fields its table names, as its JUnit report gives them', async () => {
    const documented = documentedFields('docs/scripting.md', 'output:tsv-group-fields')
    const dir = tempDir('amctl-docs-output-')
    const r = await amctl([
      ...'evals run es_acme_search --org acme --wait --repeat 2 --baseline history --junit'.split(' '),
      join(dir, 'r.xml'),
    ])
    const suite = parseJunit(readFileSync(join(dir, 'r.xml'), 'utf8')).testsuites.testsuite[0]
    const property = (name: string) => suite.properties.property.find((p: any) => p['@_name'] === name)?.['@_value']
    const rows = rowsOf(r.stdout)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row, 'a row has every documented field').toHaveLength(documented.size)
      const at = (name: string) => row[[...documented].find(([, n]) => n === name)![0] - 1]
      const group = `${at('agent')} / ${at('model')}`
      const runs = Object.keys(Object.fromEntries(suite.properties.property.map((p: any) => [p['@_name'], 1])))
        .filter((name) => name.startsWith(`${group}.run.`))
        .map((name) => property(name).split(' '))
      /** What each documented field of a group's row is, in the group's JUnit properties. */
      const GROUP_FIELD: Record<string, () => unknown> = {
        'eval set': () => suite['@_name'],
        agent: () => group.split(' / ')[0],
        model: () => group.split(' / ')[1],
        'run IDs': () => runs.map(([id]) => id).join(','),
        failed: () => String(runs.filter(([, status]) => status !== 'succeeded').length),
        score: () => (property(`${group}.score`) === undefined ? '' : Number(property(`${group}.score`))),
        verdict: () => property(`${group}.verdict`),
        'baseline run': () => '',
        'baseline score': () => Number(property(`${group}.baseline-mean`)),
        delta: () => Number(property(`${group}.delta`)),
        margin: () => Number(property(`${group}.margin`)),
        'baseline sd': () => Number(property(`${group}.baseline-sd`)),
        'baseline runs': () => String(property(`${group}.baseline-runs`).split(',').length),
        'baseline file': () => '',
        stale: () => '',
        detectable: () => Number(property(`${group}.detectable`)),
        k: () => String(runs.filter(([, status, score]) => status === 'succeeded' && score !== 'none').length),
        'decided at': () => '',
        confidence: () => Number(property(`${group}.confidence`)),
        cancelled: () => String(runs.filter(([, status]) => status === 'cancelled').length),
        'baseline failure rate': () => Number(property(`${group}.baseline-failure-rate`)),
        'failure p': () => (property(`${group}.failure-p`) === undefined ? '' : Number(property(`${group}.failure-p`))),
        'detectable failure rate': () =>
          property(`${group}.detectable-failure-rate`) === undefined ? '' : Number(property(`${group}.detectable-failure-rate`)),
      }
      expect([...documented.values()].sort(), 'the names the table uses').toEqual(Object.keys(GROUP_FIELD).sort())
      for (const [position, name] of documented)
        expectField(row[position - 1], GROUP_FIELD[name](), `${group}: field ${position} (${name})`)
    }
  })
})

describe('the JUnit report’s failure types and properties (docs/ci-reference.md) are the ones it writes', () => {
  interface Written {
    /** how the wait judged: which properties may appear */
    baseline: 'none' | 'run' | 'history' | 'file'
    grouped: boolean
    report: any
  }
  const written: Written[] = []

  /** One wait with `--junit`, its report kept. */
  async function report(argv: string[], baseline: Written['baseline'], grouped = false): Promise<void> {
    const file = join(tempDir('amctl-docs-output-'), 'r.xml')
    await amctl([...argv, '--org', 'acme', '--junit', file])
    written.push({baseline, grouped, report: parseJunit(readFileSync(file, 'utf8'))})
  }

  beforeAll(async () => {
    const {items} = JSON.parse((await amctl(['runs', 'list', '--org', 'acme', '--all', '--json'])).stdout) as {items: any[]}
    const scored = items.filter((run) => run.status === 'succeeded' && typeof run.score === 'number').sort((a, b) => b.score - a.score)
    const [best, lower] = [scored[0].id, scored.at(-1).id]
    const failed = items.find((run) => run.status === 'failed').id
    // status and max-drop: a failed run, and a run below the best one, against it
    await report(['runs', 'watch', failed, lower, '--baseline', best, '--max-drop', '0'], 'run')
    await report(['runs', 'watch', lower, '--baseline', 'previous'], 'run')
    // min-score
    await report(['runs', 'watch', lower, '--min-score', '1'], 'none')
    // baseline: no earlier run of its agent and model within a second of it, with --require-baseline
    await report(['runs', 'watch', lower, '--baseline', 'history', '--baseline-window', '1', '--require-baseline'], 'history')
    // noise: a run far below its history
    await plan({evalSetId: 'es_acme_search', agent: 'claude-code', status: 'succeeded', score: 0.05, count: 1})
    await report(['evals', 'run', 'es_acme_search', '--wait', '--baseline', 'history'], 'history')
    // --repeat: the groups' runs as properties
    await report(['evals', 'run', 'es_acme_search', '--wait', '--repeat', '2', '--baseline', 'history'], 'history', true)
    // a baseline file (its path, whether it is stale); --repeat auto (the launch that decided a
    // group), here after one launch with --fail-inconclusive: claude-code's noise of 0.09 leaves a
    // drop of 0.10 in doubt
    const file = join(tempDir('amctl-docs-output-'), 'search-baseline.json')
    await amctl(['evals', 'baseline', 'save', 'es_acme_search', '--org', 'acme', '--file', file])
    await report(['evals', 'run', 'es_acme_search', '--wait', '--baseline-file', file], 'file')
    await report(
      [
        'evals',
        'run',
        'es_acme_search',
        '--wait',
        '--baseline-file',
        file,
        '--repeat',
        'auto',
        '--max-repeat',
        '1',
        '--max-drop',
        '0.1',
        '--fail-inconclusive',
      ],
      'file',
      true,
    )
  }, 180_000)

  const testcases = (w: Written) => w.report.testsuites.testsuite.flatMap((suite: any) => suite.testcase ?? [])

  it('the failure types are the table’s, each seen in a real report', () => {
    const documented = tableAfter(read('docs/ci-reference.md'), 'output:junit-failure-types').rows.map(([type]) => plain(type))
    const seen = new Set(written.flatMap((w) => testcases(w).flatMap((c: any) => (c.failure ? [c.failure['@_type']] : []))))
    expect([...seen].sort()).toEqual([...documented].sort())
  })

  it('the properties are the table’s, each seen, and each only where the table says', () => {
    const table = tableAfter(read('docs/ci-reference.md'), 'output:junit-properties').rows.map(([name, , when]) => ({
      name: plain(name),
      when: plain(when),
    }))
    const seenIn = new Map<string, Written[]>()
    for (const w of written) {
      // a property is named after its run (`<run ID>.score`) or with --repeat its group (`<agent> / <model>.score`)
      const owners = testcases(w)
        .map((c: any) => /^(.*) \(([^()]*)\)$/.exec(c['@_name'])!)
        .map(([, group, run]: string[]) => (w.grouped ? group : run))
      for (const suite of w.report.testsuites.testsuite) {
        for (const property of suite.properties?.property ?? []) {
          const full: string = property['@_name']
          const owner = owners.find((o: string) => full.startsWith(`${o}.`))
          expect(owner, `${full}: named after a run or group of the report`).toBeDefined()
          const name = full.slice(owner.length + 1).replace(/^run\.\d+$/, 'run.N')
          seenIn.set(name, [...(seenIn.get(name) ?? []), w])
        }
      }
    }
    expect([...seenIn.keys()].sort()).toEqual(table.map((row) => row.name).sort())
    for (const {name, when} of table) {
      const where = seenIn.get(name) ?? []
      const noise = [...(when.includes('--baseline history') ? ['history'] : []), ...(when.includes('--baseline-file') ? ['file'] : [])]
      if (noise.length > 0)
        expect(
          where.every((w) => noise.includes(w.baseline)),
          `${name}: ${when}`,
        ).toBe(true)
      if (when.includes('--baseline previous'))
        expect(
          where.every((w) => w.baseline === 'run'),
          `${name}: ${when}`,
        ).toBe(true)
      if (when.includes('--repeat'))
        expect(
          where.every((w) => w.grouped),
          `${name}: ${when}`,
        ).toBe(true)
    }
  })
})
