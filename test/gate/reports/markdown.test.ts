import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {marked, type Tokens} from 'marked'
import {describe, expect, it} from 'vitest'
import EvalsRun from '../../../src/commands/evals/run.js'
import RunsWatch from '../../../src/commands/runs/watch.js'
import {markdownSummary} from '../../../src/gate/reports/markdown.js'
import {gatedRun, numberedLaunches, saveBaselineFile, serveRuns} from '../../commands/evals/fixtures.js'
import {runCommand} from '../../helpers/cli.js'
import {useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {sampleReport} from './fixtures.js'

const api = useFakeApi({}, {me: false})

/** The summary's table as a Markdown parser reads it: header and rows of cell text. */
function table(markdown: string): {header: string[]; rows: string[][]} {
  const token = marked.lexer(markdown).find((t): t is Tokens.Table => t.type === 'table')
  if (!token) throw new Error('no table')
  return {header: token.header.map((c) => c.text), rows: token.rows.map((r) => r.map((c) => c.text))}
}

describe('markdownSummary (--summary, $GITHUB_STEP_SUMMARY)', () => {
  it('a verdict line, a table of the runs, the failures, what they were held to, and who had no baseline', () => {
    const md = markdownSummary(sampleReport())
    expect(md.split('\n')[0]).toBe('### ❌ amctl: 3 of 5 runs did not pass')
    const {header, rows} = table(md)
    expect(header).toEqual(['Run', 'Eval set', 'Agent', 'Model', 'Status', 'Score', 'Baseline', 'Δ', 'Verdict'])
    expect(rows[0]).toEqual([
      'run_1',
      'es_acme_checkout',
      'claude-code',
      'claude-sonnet-4-5',
      '✅ succeeded',
      '0.82',
      'run_0 (0.80)',
      '+0.02',
      'passed',
    ])
    expect(rows[1]).toEqual(['run_2', 'es_acme_checkout', 'codex', 'gpt-5', '❌ succeeded', '0.61', 'run_9 (0.88)', '−0.27', 'regressed'])
    expect(rows[2].slice(4)).toEqual(['❌ failed', '0.20', 'no baseline', '—', 'failed'])
    expect(rows[3].slice(4)).toEqual(['⏳ running', '—', 'no baseline', '—', 'unfinished'])
    expect(md).toContain('**Failures**\n\n- run_2 (codex / gpt-5): scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1)\n')
    expect(md).toContain('**Not finished**\n\n- run_4: not finished (running)\n')
    expect(md).toContain('Each run must succeed, score at least 0.5 (--min-score) and score at most 0.1 below its baseline (--max-drop).')
    expect(md).toContain(
      'Baseline: the newest run of the same eval set, agent and model that succeeded with a score, created at most 30d before it (--baseline previous).',
    )
    expect(md).toMatch(/No baseline for run_3, run_4, .* \(no such run was found\): not held to --max-drop\.\n$/)
  })

  it('server text stays text in one cell: pipes, newlines, markup, links and control characters cannot change the table', () => {
    const md = markdownSummary(sampleReport())
    const {rows} = table(md)
    expect(rows).toHaveLength(5)
    for (const row of rows) expect(row).toHaveLength(9)
    // each cell, rendered, shows the server's text as it is (control characters as \u00XX)
    const shown = rows[4].map((cell) => marked.parseInline(cell) as string)
    expect(shown[0]).toBe('run|5\\u000a&lt;b&gt;*x*&lt;/b&gt; &amp; `y`\\u001b[31m')
    expect(shown[2]).toBe('agent|with|pipes\\u000d\\u000aand::colons,commas%')
    expect(shown[3]).toBe('_emph_ [link](http://x)')
    const html = marked.parse(md) as string
    expect(html).not.toContain('<b>')
    expect(html).not.toContain('<a ')
    expect(html).not.toContain('<em>')
    expect(md).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F]/)
  })

  it('without --baseline there are no baseline columns; a pass has no failures section', () => {
    const report = sampleReport({
      end: 'passed',
      rules: {timeoutS: 3600},
      runs: [{...sampleReport().runs[0], baseline: undefined, delta: undefined}],
    })
    const md = markdownSummary(report)
    expect(md.split('\n')[0]).toBe('### ✅ amctl: 1 run passed')
    expect(table(md).header).toEqual(['Run', 'Eval set', 'Agent', 'Model', 'Status', 'Score', 'Verdict'])
    expect(table(md).rows[0].slice(6)).toEqual(['passed'])
    expect(md).not.toContain('Failures')
    expect(md).toContain('Each run must succeed.\n')
  })

  it('escapes $ (GitHub renders $…$ as math): issue 26 item 20', () => {
    const report = sampleReport({runs: [{...sampleReport().runs[0], agent: '$x^2$', model: 'a $5 model'}]})
    const md = markdownSummary(report)
    expect(table(md).rows[0][2]).toBe('\\$x^2\\$')
    expect(md).not.toMatch(/(?<!\\)\$/)
  })

  it('the verdict of a timeout, of Ctrl-C and of SIGTERM (the report names the signal; none named is Ctrl-C)', () => {
    expect(markdownSummary(sampleReport({end: 'timeout'})).split('\n')[0]).toBe(
      '### ⏱️ amctl: 1 of 5 runs not finished within --wait-timeout 30m; 3 did not pass',
    )
    expect(markdownSummary(sampleReport({end: 'interrupted'})).split('\n')[0]).toBe(
      '### ⏹️ amctl: interrupted (Ctrl-C): 1 of 5 runs not finished; 3 did not pass',
    )
    expect(markdownSummary(sampleReport({end: 'interrupted', signal: 'SIGINT'})).split('\n')[0]).toBe(
      '### ⏹️ amctl: interrupted (Ctrl-C): 1 of 5 runs not finished; 3 did not pass',
    )
    expect(markdownSummary(sampleReport({end: 'interrupted', signal: 'SIGTERM'})).split('\n')[0]).toBe(
      '### ⏹️ amctl: interrupted (SIGTERM): 1 of 5 runs not finished; 3 did not pass',
    )
  })
})

// What a reader of the summary sees when the gate judged against a history or a baseline file:
// written by the commands (--summary) from a fake API's runs, so that the figures are the ones a
// wait computes, whatever builds the report. The world: five earlier runs of es_1 by codex /
// gpt-5, mean 0.70 and sd 0.031623, drawn ▅▇▂▆▃ (../../commands/evals/fixtures.ts).
describe('the summary of a wait judged against a history or a baseline file (--summary)', () => {
  const summaryOf = async (Cmd: typeof RunsWatch | typeof EvalsRun, argv: string[], exit: number) => {
    const path = join(tempDir('amctl-summary-'), 'summary.md')
    const r = await runCommand(Cmd, [...argv, '--org', 'acme', '--summary', path], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(exit)
    return readFileSync(path, 'utf8')
  }
  /** w1 (score 0.62) as the run table shows it whatever the baseline: the run, its baseline of 0.70 ± 0.03 (5) drawn ▅▇▂▆▃, and Δ. */
  const W1 = {
    Run: 'w1',
    'Eval set': 'es_1',
    Agent: 'codex',
    Model: 'gpt-5',
    Score: '0.62',
    Baseline: '0.70 ± 0.03 (5) ▅▇▂▆▃',
    Δ: '−0.08',
  }
  /** The group codex / gpt-5 (run_1 0.64, run_2 0.62) as the group table shows it whatever the baseline. */
  const GROUP = {'Eval set': 'es_1', Agent: 'codex', Model: 'gpt-5', Runs: '2', Scores: '0.64, 0.62', Score: '0.63', Δ: '−0.07'}
  const cells = (md: string) => {
    const {header, rows} = table(md)
    return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])))
  }

  it('runs watch --baseline history: Baseline is mean ± sd (n) and the trend of the history; Δ, Detectable and the verdict beside it', async () => {
    serveRuns(api, [gatedRun('w1', 1, 0.62)])
    const md = await summaryOf(RunsWatch, ['w1', '--baseline', 'history'], 10)
    expect(md.split('\n')[0]).toBe('### ❌ amctl: 1 of 1 run did not pass')
    // detectable: t(0.95, 4) × sd × √(1 + 1/5) + t(0.8, 4) × sd × √(1 + 1/5) = 0.073849 + 0.032596 = 0.106445
    expect(cells(md)).toEqual([{...W1, Status: '❌ succeeded', Detectable: '0.11', Verdict: 'regressed'}])
    expect(md).toContain(
      '**Failures**\n\n- w1 (codex / gpt-5): scored 0.62, 0.08 below the mean of 5 earlier runs (0.70 ± 0.03): beyond noise at 95 %\n',
    )
    expect(md).toContain('Each run must succeed and score within the noise of its history.')
  })

  it('runs watch --baseline-file: Baseline is the file group as mean ± sd (n) and its trend; the wider margin of the file passes the same drop', async () => {
    const file = join(tempDir('amctl-summary-file-'), 'baseline.json')
    await saveBaselineFile(api, file)
    serveRuns(api, [gatedRun('w1', 1, 0.62)])
    const md = await summaryOf(RunsWatch, ['w1', '--baseline-file', file], 0)
    expect(md.split('\n')[0]).toBe('### ✅ amctl: 1 run passed')
    // (detectable: the file's tolerance bound, 0.140109, as --json has it: test/commands/evals/run.test.ts checks the bound)
    expect(cells(md)).toEqual([{...W1, Status: '✅ succeeded', Detectable: '0.14', Verdict: 'passed'}])
    expect(md).toContain(
      `- w1 (codex / gpt-5): scored 0.62, 0.08 below the mean of 5 runs in ${file} (0.70 ± 0.03): within noise at 95 %\n`,
    )
    expect(md).toContain(`Baseline: the runs of the same agent and model in the baseline file ${file}, saved 2026-01-15T12:00:00.000Z`)
    expect(md, 'no group is stale').not.toContain('⚠️')
  })

  it('evals run --repeat 2 --baseline history: the group’s row, its scores and mean against the history, Δ, Detectable and the verdict', async () => {
    numberedLaunches(api)
    serveRuns(api, [gatedRun('run_2', 0.5, 0.62, {batchId: 'b_2'}), gatedRun('run_1', 0.5, 0.64, {batchId: 'b_1'})])
    const md = await summaryOf(EvalsRun, ['es_1', '--wait', '--repeat', '2', '--baseline', 'history'], 10)
    expect(md.split('\n')[0]).toBe('### ❌ amctl: 1 of 1 group did not pass')
    // detectable for the mean of 2: (t(c, 4) + t(0.8, 4)) × sd × √(1/2 + 1/5), c = 1 − (0.05 − s): the score
    // test's share once the failure test of the history's 5 runs (none failed) took its size s = 1/84
    expect(cells(md)).toEqual([{...GROUP, Baseline: '0.70 ± 0.03 (5) ▅▇▂▆▃', Detectable: '0.09', Verdict: '❌ regressed'}])
    expect(md).toContain(
      '- es_1 codex / gpt-5: scored 0.63 (mean of 2 runs), 0.07 below the mean of 5 earlier runs (0.70 ± 0.03): beyond noise at 95 %\n',
    )
  })

  it('evals run --repeat 2 --baseline-file, the group stale: the Baseline cell says so, and a paragraph says how to refresh the file', async () => {
    const file = join(tempDir('amctl-summary-file-'), 'baseline.json')
    await saveBaselineFile(api, file)
    numberedLaunches(api)
    serveRuns(api, [gatedRun('run_2', 0.5, 0.62, {batchId: 'b_2'}), gatedRun('run_1', 0.5, 0.64, {batchId: 'b_1'})])
    // the file's newest run is two hours old
    const md = await summaryOf(EvalsRun, ['es_1', '--wait', '--repeat', '2', '--baseline-file', file, '--baseline-max-age', '1h'], 0)
    expect(md.split('\n')[0]).toBe('### ✅ amctl: 1 group passed')
    // (the tolerance bound at the score test's share of 0.05, as above)
    expect(cells(md)).toEqual([{...GROUP, Baseline: '0.70 ± 0.03 (5) ▅▇▂▆▃ ⚠️ stale', Detectable: '0.11', Verdict: '✅ passed'}])
    expect(md).toContain(`\n⚠️ The baseline file ${file} is stale for es_1 codex / gpt-5: no run newer than 1h (--baseline-max-age).`)
    expect(md).toContain('Refresh it: `amctl evals baseline save`, or `--update-baseline` on the default branch.\n')
  })
})
