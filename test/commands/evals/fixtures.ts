import {expect} from 'vitest'
import EvalsBaselineSave from '../../../src/commands/evals/baseline/save.js'
import {runCommand} from '../../helpers/cli.js'
import {type FakeApi, reply} from '../../helpers/fake-api.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'

/**
 * A gate's world for the tests of what a wait shows with a history or a baseline file (the
 * terminal's tables, the Markdown summary): five earlier runs of es_1 by codex / gpt-5, an hour
 * apart, the newest two hours before the command's clock, scoring (oldest first) 0.70, 0.74,
 * 0.66, 0.72 and 0.68: mean 0.70, sd 0.031623 (√(0.004 / 4)). On a sparkline of the scale 0.65–0.75
 * (a range of at least 0.1, src/output/sparkline.ts) they draw ▅▇▂▆▃.
 */
export const HISTORY_SCORES = [0.7, 0.74, 0.66, 0.72, 0.68]

/** A run of es_1 by codex / gpt-5 created `hoursAgo` before the command's clock. */
export function gatedRun(id: string, hoursAgo: number, score: number | null, fields: Record<string, unknown> = {}) {
  return {
    id,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: 'b_0',
    createdAt: new Date(FAKE_WALL_START - hoursAgo * 3_600_000).toISOString(),
    forkedFrom: null,
    agent: 'codex',
    model: 'gpt-5',
    score,
    ...fields,
  }
}

/** The five earlier runs, newest first as the API lists them. */
export const HISTORY = HISTORY_SCORES.map((score, i) => gatedRun(`h${i + 1}`, 6 - i, score)).reverse()

/** The org's run list: `runs` (newest first), then the history, in one page. */
export function serveRuns(api: FakeApi, runs: object[] = []): void {
  api.stub('GET /orgs/acme/runs', () => reply(200, {items: [...runs, ...HISTORY], nextCursor: null}))
}

/** Launch N of es_1 answers batch b_N and run run_N. */
export function numberedLaunches(api: FakeApi): void {
  let launches = 0
  api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
    launches++
    return reply(200, {batchIds: [`b_${launches}`], runIds: [`run_${launches}`]})
  })
}

/** The history saved to `path` as a baseline file, as a user makes one (`evals baseline save`). */
export async function saveBaselineFile(api: FakeApi, path: string): Promise<void> {
  serveRuns(api)
  const saved = await runCommand(EvalsBaselineSave, ['es_1', '--org', 'acme', '--file', path], {env: api.env()})
  expect(saved.exitCode, saved.stderr).toBe(0)
}

/** A terminal table (columns two or more spaces apart) as one record per row, by its header. */
export function terminalTable(stdout: string): Array<Record<string, string>> {
  const [header, ...rows] = stdout.split('\n').filter((line) => line.trim() !== '')
  const names = header.trim().split(/ {2,}/)
  return rows.map((row) => {
    const cells = row.trim().split(/ {2,}/)
    expect(cells, `a cell for each column of ${names.join(', ')}: ${row}`).toHaveLength(names.length)
    return Object.fromEntries(names.map((name, i) => [name, cells[i]]))
  })
}
