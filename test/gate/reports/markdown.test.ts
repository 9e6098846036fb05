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
import {docsUrl} from '../../../src/gate/report.js'
import {CASES, commentOf, runCase} from './comments.js'
import {sampleReport} from './fixtures.js'
import type {UpdateResult} from '../../../src/gate/update.js'
import {writeBaseline} from '../../helpers/baseline.js'
import {RELAUNCH} from '../../../src/gate/flags.js'

const api = useFakeApi({}, {me: false})

/** The summary's table as a Markdown parser reads it: header and rows of cell text. */
function table(markdown: string): {header: string[]; rows: string[][]} {
  const token = marked.lexer(markdown).find((t): t is Tokens.Table => t.type === 'table')
  if (!token) throw new Error('no table')
  return {header: token.header.map((c) => c.text), rows: token.rows.map((r) => r.map((c) => c.text))}
}

describe('markdownSummary (--summary, $GITHUB_STEP_SUMMARY, the pull-request comment)', () => {
  it('a headline naming the worst failure and how many did not pass, one table of five columns, what to do, the rest collapsed', () => {
    const md = markdownSummary(sampleReport())
    // the status failures first (a run that failed is worse than one that dropped), then the drop
    expect(md.split('\n')[0]).toBe(
      '### ❌ **es_acme_search: claude-code / claude-sonnet-4-5**: 1 of 1 run did not succeed (failed) · 3 of 5 runs did not pass',
    )
    const {header, rows} = table(md)
    expect(header).toEqual(['Run', 'Score', 'Baseline', 'Δ', 'Verdict'])
    expect(rows.slice(0, 4)).toEqual([
      ['es_acme_checkout: claude-code / claude-sonnet-4-5<br><sub>run_1</sub>', '0.82', '0.80<br><sub>run_0</sub>', '+0.02', '✅ passed'],
      ['es_acme_checkout: codex / gpt-5<br><sub>run_2</sub>', '0.61', '0.88<br><sub>run_9</sub>', '−0.27', '❌ regressed'],
      ['es_acme_search: claude-code / claude-sonnet-4-5<br><sub>run_3</sub>', 'failed', 'none', '—', '❌ failed'],
      ['es_acme_search: claude-code / claude-sonnet-4-5<br><sub>run_4</sub>', 'running', 'none', '—', '⏳ unfinished'],
    ])
    expect(md).toContain(
      '\n- **es_acme_checkout: codex / gpt-5** regressed: look at its runs (run_2) beside its history: `amctl evals stats es_acme_checkout --org acme`; if the drop is intended, the next step compares with this run (--baseline previous).\n',
    )
    expect(md).toContain(
      '\n- **es_acme_search: claude-code / claude-sonnet-4-5**: look at the failed runs (run_3); its failures over time: `amctl runs list --org acme --eval-set es_acme_search --agent claude-code --model claude-sonnet-4-5 --status failed,cancelled`.\n',
    )
    expect(md).toContain('\n⏳ Still going on the server (the API cannot cancel runs): run_4.\n')
    const [before, collapsed] = md.split('<details><summary>Runs, figures and how they were judged</summary>')
    expect(before).not.toContain('Each run must')
    expect(collapsed).toContain(
      '- **es_acme_checkout: codex / gpt-5**: run_2 0.61 (succeeded)\n  Baseline 0.88 · Δ −0.27\n  Scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1).\n',
    )
    expect(collapsed).toContain(
      'Each run must succeed, score at least 0.5 (--min-score) and score at most 0.1 below the newest earlier run (--baseline previous).',
    )
    expect(collapsed).toContain(' A run that failed or was cancelled fails; more in amctl’s docs/ci.md.\n\n</details>\n')
  })

  it('server text stays text in one cell: pipes, newlines, markup, links and control characters cannot change the table', () => {
    const md = markdownSummary(sampleReport())
    const {rows} = table(md)
    expect(rows).toHaveLength(5)
    for (const row of rows) expect(row).toHaveLength(5)
    // each cell, rendered, shows the server's text as it is (control characters as \u00XX)
    const shown = marked.parseInline(rows[4][0]) as string
    expect(shown).toBe(
      'es_acme_checkout: agent|with|pipes\\u000d\\u000aand::colons,commas% / _emph_ [link](http://x)<br><sub>run|5\\u000a&lt;b&gt;*x*&lt;/b&gt; &amp; `y`\\u001b[31m</sub>',
    )
    const html = marked.parse(md) as string
    expect(html).not.toContain('<b>')
    expect(html).not.toContain('<a ')
    expect(html).not.toContain('<em>')
    expect(md).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F]/)
  })

  it('a command holding what a code span cannot show (a backtick, a control character) is not written as one', () => {
    const [, regressed] = sampleReport().runs
    const md = markdownSummary(sampleReport({org: 'ac`me', runs: [regressed]}))
    expect(md).toContain('beside its history: (a command whose words a comment cannot show as they are)')
    expect(md).not.toContain('`amctl')
  })

  it('without --baseline: three columns; a pass says so in one line', () => {
    const report = sampleReport({
      end: 'passed',
      rules: {timeoutS: 3600},
      runs: [{...sampleReport().runs[0], baseline: undefined, delta: undefined}],
    })
    const md = markdownSummary(report)
    expect(md.split('\n')[0]).toBe('### ✅ 1 run passed')
    expect(table(md).header).toEqual(['Run', 'Score', 'Verdict'])
    expect(md).not.toContain('What to do')
    expect(md).toContain('\nEach run must succeed.')
    expect(md).toContain(' A run that failed or was cancelled fails; more in amctl’s docs/ci.md.\n')
  })

  it('escapes $ (GitHub renders $…$ as math): issue 26 item 20', () => {
    const report = sampleReport({runs: [{...sampleReport().runs[0], agent: '$x^2$', model: 'a $5 model'}]})
    const md = markdownSummary(report)
    expect(table(md).rows[0][0]).toBe('\\$x^2\\$ / a \\$5 model<br><sub>run_1</sub>')
    expect(md).not.toMatch(/(?<!\\)\$/)
  })

  it('the headline of a timeout, of Ctrl-C and of SIGTERM (the signal named; none named is Ctrl-C), with the worst failure', () => {
    const worst = '· worst: **es_acme_search: claude-code / claude-sonnet-4-5**: 1 of 1 run did not succeed (failed)'
    const first = (fields: Parameters<typeof sampleReport>[0]) => markdownSummary(sampleReport(fields)).split('\n')[0]
    expect(first({end: 'timeout'})).toMatch(/^### ⏱️ 1 of 5 runs not finished within --wait-timeout 30m; 3 did not pass · worst: /)
    expect(first({end: 'interrupted'})).toContain('### ⏹️ Interrupted (Ctrl-C): 1 of 5 runs not finished; 3 did not pass ')
    expect(first({end: 'interrupted', signal: 'SIGINT'})).toContain('### ⏹️ Interrupted (Ctrl-C): 1 of 5 runs not finished; 3 did not pass ')
    expect(first({end: 'interrupted', signal: 'SIGTERM'})).toContain(
      `### ⏹️ Interrupted (SIGTERM): 1 of 5 runs not finished; 3 did not pass ${worst}`,
    )
  })

  it("--update-baseline's warnings (a level moved, failures rose) are among the warnings, one line each, server text kept text", () => {
    const update: UpdateResult = {
      path: 'evals/b.json',
      updated: true,
      added: 5,
      addedTo: [{group: '@octocat / gpt|5', runs: 5}],
      outcomes: 1,
      started: [],
      dropped: 0,
      leftOut: [],
      changes: [
        {
          kind: 'level',
          group: '@octocat / gpt|5',
          agent: '@octocat',
          model: 'gpt|5',
          from: 0.84,
          to: 0.77,
          delta: -0.07,
          sd: 0.016,
          sds: 4.4,
          runId: 'run_acme_0301',
          createdAt: '2026-01-15T11:00:00.000Z',
        },
        {
          kind: 'failures',
          group: 'codex / *gpt-5*',
          agent: 'codex',
          model: '*gpt-5*',
          from: 0,
          to: 0.032258,
          delta: 0.032258,
          failed: 1,
          finished: 31,
          before: {failed: 0, finished: 30},
          added: {failed: 1, finished: 1},
          p: 0.03125,
        },
      ],
    }
    const md = markdownSummary(sampleReport({baselineUpdate: update}))
    expect(md).toContain(
      [
        'The baseline file evals/b.json took in 5 runs (--update-baseline).',
        '',
        '⚠️ \\@\u2060octocat / gpt\\|5 moved from 0.84 to 0.77 at run_acme_0301 (−0.07, 4.4 sd): this update makes it the baseline.',
        '',
        '⚠️ codex / \\*gpt-5\\* fails 1 of its 31 runs, 0 of 30 before this update: this update makes it the baseline.',
        '',
      ].join('\n'),
    )
    // GitHub reads them as text: no mention, no emphasis
    const html = marked.parse(md) as string
    expect(html).toContain('@\u2060octocat / gpt|5 moved')
    expect(html).toContain('codex / *gpt-5* fails')
    // an update that took nothing of the kind in adds no line
    expect(markdownSummary(sampleReport({baselineUpdate: {...update, changes: []}}))).not.toContain('this update makes it the baseline')
  })

  it('AMCTL_DOCS_URL (an http or https URL) links the method to docs/ci.md', () => {
    const md = markdownSummary(sampleReport(), {docsUrl: 'https://github.com/acme/amctl/blob/v0.3.0/docs'})
    expect(md).toContain('more in [docs/ci.md](https://github.com/acme/amctl/blob/v0.3.0/docs/ci.md).')
    expect(docsUrl({AMCTL_DOCS_URL: 'javascript:alert(1)//docs/'})).toBeUndefined()
    expect(docsUrl({AMCTL_DOCS_URL: 'http://ghes.example/docs/'})).toBe('http://ghes.example/docs/')
    expect(docsUrl({AMCTL_DOCS_URL: 'not a url'})).toBeUndefined()
    expect(docsUrl({AMCTL_DOCS_URL: 'https://example.com/docs/'})).toBe('https://example.com/docs/')
  })
})

// The six cases (issue 36 §3), each made by the step a user runs (./comments.ts): the
// body `evals comment` prints from the step's --json is the --summary the step wrote, the
// comment the Action posts; what each says. (test/browser/gate-comment.test.ts renders them.)
describe('the comment of a step, from its --json document (evals comment)', () => {
  const comment = async (name: string) => {
    const c = CASES.find((one) => one.name === name) as (typeof CASES)[number]
    const {json, summary, dir} = await runCase(api, c)
    const body = await commentOf(json)
    expect(body, "the body the Action posts: the step's own summary").toBe(summary)
    return body.replaceAll(dir, 'evals')
  }
  const REFRESH =
    '`amctl evals run es_acme_search --org acme --wait --repeat 5 --json | amctl evals baseline save es_acme_search --org acme --file evals/search-baseline.json --runs -`'

  it('regressed: the group, its score against the baseline, by how much and at which level; the runs and the command that refreshes the file', async () => {
    const md = await comment('regressed')
    expect(md.split('\n')[0]).toBe(
      '### ❌ **claude-code / claude-sonnet-4-5** regressed: 0.77 against 0.84 ± 0.02 (−0.07, beyond noise at 95 %) · 1 of 2 runs did not pass',
    )
    expect(md).toContain(
      `- **claude-code / claude-sonnet-4-5** regressed: look at its runs (run_1_claude-code) beside its history: \`amctl evals stats es_acme_search --org acme\`; if the drop is intended, make the new level the baseline and commit the file: ${REFRESH}.\n`,
    )
  })

  it("a failure within the agent's rate, relaunched: the step passes, and says why the failed run did not fail it", async () => {
    const md = await comment('flaky')
    expect(md.split('\n')[0]).toBe('### ✅ All 4 runs passed')
    expect(table(md).rows[1]).toEqual(['codex / gpt-5<br><sub>run_1_codex</sub>', 'failed', '0.72 ± 0.04', '−0.01', '✅ passed, flaky'])
    expect(md).toContain('\n**codex / gpt-5** passed on its other runs: 1 failed within its rate (5 of 35 baseline runs failed).\n')
  })

  it('--repeat auto inconclusive: a warning headline naming the group, the drop not ruled out, and what would decide it', async () => {
    const md = await comment('inconclusive')
    expect(md.split('\n')[0]).toBe(
      '### ⚠️ **claude-code / claude-sonnet-4-5** is inconclusive after 3 launches: a drop of up to 0.07 is not ruled out (--max-drop 3sd: 0.06) · the step passes: 2 groups',
    )
    expect(table(md).rows.map((row) => row.at(-1))).toEqual(['⚠️ inconclusive', '✅ passed'])
    expect(md).toContain('; more launches would decide it (a larger --max-repeat), or a --max-drop the step can clear.')
    expect(md).toContain(' --fail-inconclusive would fail the step on it.')
    expect(md).toContain("until each group regressed or was cleared of a drop of 3 times its baseline's sd (--max-drop 3sd)")
  })

  it("failures beyond the rate: the group, how many, its baseline's rate; the failed runs, once for the group", async () => {
    const md = await comment('failed-beyond-rate')
    expect(md.split('\n')[0]).toBe(
      "### ❌ **claude-code / claude-sonnet-4-5** failed 2 of 2 runs, beyond its baseline's rate (0 of 30 failed) · 2 of 4 runs did not pass",
    )
    const todo = md.split('**What to do**')[1].split('<details>')[0]
    expect(todo.trim().split('\n')).toEqual([
      '- **claude-code / claude-sonnet-4-5**: look at the failed runs (run_1_claude-code, run_2_claude-code); its failures over time: `amctl runs list --org acme --eval-set es_acme_search --agent claude-code --model claude-sonnet-4-5 --status failed,cancelled`.',
    ])
  })

  it('a stale baseline: the cell says so, and one line gives the command that refreshes the file', async () => {
    const md = await comment('stale')
    expect(md.split('\n')[0]).toBe('### ✅ All 2 runs passed')
    expect(table(md).rows[0][2]).toBe('0.84 ± 0.02 ⚠️ stale')
    expect(md).toContain(
      '\n⚠️ The baseline file evals/search-baseline.json is stale for **claude-code / claude-sonnet-4-5**, **codex / gpt-5**: no run newer than 1d (--baseline-max-age).',
    )
    expect(md).toContain(` Refresh it: ${REFRESH}, or let the default branch add its runs (--update-baseline).\n`)
  })

  it('a launch that failed: the headline says so; what was judged is shown, the group left undecided says what to do', async () => {
    const md = await comment('error')
    expect(md.split('\n')[0]).toBe(
      `### ⚠️ Launch 2 (relaunch 1 of at most ${RELAUNCH.default}) failed: the launch failed; no further launch was made`,
    )
    expect(md).toContain(
      '\n⚠️ **codex / gpt-5** is inconclusive: no run of 1 succeeded (1 failed within its rate, 0 cancelled); no launch was left to decide it: re-run the step.',
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
  /** w1 (score 0.62) as the run table shows it whatever the baseline: the run, its baseline of 0.70 ± 0.03, and Δ. */
  const W1 = {Run: 'codex / gpt-5<br><sub>w1</sub>', Score: '0.62', Baseline: '0.70 ± 0.03', Δ: '−0.08'}
  /** The group codex / gpt-5 (run_1 0.64, run_2 0.62) as the group table shows it whatever the baseline. */
  const GROUP = {Group: 'codex / gpt-5', Score: '0.63<br><sub>mean of 2</sub>', Baseline: '0.70 ± 0.03', Δ: '−0.07'}
  const cells = (md: string) => {
    const {header, rows} = table(md)
    return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])))
  }
  /** The collapsed part's lines of an item: its runs, its figures, its sentence. */
  const collapsed = (md: string) => md.split('</summary>\n\n')[1].split('\n\n')[0].split('\n')

  it("runs watch --baseline history: the baseline as mean ± sd, Δ, the verdict; the history's figures and trend collapsed", async () => {
    serveRuns(api, [gatedRun('w1', 1, 0.62)])
    const md = await summaryOf(RunsWatch, ['w1', '--baseline', 'history'], 10)
    expect(md.split('\n')[0]).toBe('### ❌ **codex / gpt-5** regressed: 0.62 against 0.70 ± 0.03 (−0.08, beyond noise at 95 %)')
    expect(cells(md)).toEqual([{...W1, Verdict: '❌ regressed'}])
    // detectable: t(0.95, 4) × sd × √(1 + 1/5) + t(0.8, 4) × sd × √(1 + 1/5) = 0.073849 + 0.032596 = 0.106445
    expect(collapsed(md)).toEqual([
      '- **codex / gpt-5**: w1 0.62 (succeeded)',
      // (a single run judged alone: no relaunch, so no failure rate it could catch)
      '  Baseline 0.70 · Δ −0.08 · Margin 0.07 · SD 0.03 · Runs 5 · Detectable 0.11 · Level 95 % · Failure rate 0 % · Trend `▅▇▂▆▃`',
      '  Scored 0.62, 0.08 below the mean of 5 earlier runs (0.70 ± 0.03): beyond noise at 95 %.',
    ])
    expect(md).toContain(
      'if the drop is intended, there is no file to refresh: the history takes the new level in once it holds the newest 20 runs.',
    )
    expect(md).toContain('Each run must succeed and stay within the noise of its newest 20 earlier runs (--baseline history).')
  })

  it('runs watch --baseline-file: the file group as mean ± sd; the wider margin of the file passes the same drop', async () => {
    const file = join(tempDir('amctl-summary-file-'), 'baseline.json')
    await saveBaselineFile(api, file)
    serveRuns(api, [gatedRun('w1', 1, 0.62)])
    const md = await summaryOf(RunsWatch, ['w1', '--baseline-file', file], 0)
    expect(md.split('\n')[0]).toBe('### ✅ 1 run passed')
    expect(cells(md)).toEqual([{...W1, Verdict: '✅ passed'}])
    // (detectable: the file's tolerance bound, 0.140109, as --json has it: test/commands/evals/run.test.ts checks the bound)
    expect(collapsed(md)[1]).toContain(' · Detectable 0.14 · ')
    expect(collapsed(md)[2]).toBe(`  Scored 0.62, 0.08 below the mean of 5 runs in ${file} (0.70 ± 0.03): within noise at 95 %.`)
    expect(md).toContain(`stay within the noise of its runs in ${file}, saved 2026-01-15T12:00:00.000Z (--baseline-file)`)
    expect(md, 'no group is stale').not.toContain('⚠️')
  })

  it("evals run --repeat 2 --baseline history: the group's row, its mean and how many runs it holds, Δ and the verdict", async () => {
    numberedLaunches(api)
    serveRuns(api, [gatedRun('run_2', 0.5, 0.62, {batchId: 'b_2'}), gatedRun('run_1', 0.5, 0.64, {batchId: 'b_1'})])
    const md = await summaryOf(EvalsRun, ['es_1', '--wait', '--repeat', '2', '--baseline', 'history'], 10)
    expect(md.split('\n')[0]).toBe('### ❌ **codex / gpt-5** regressed: 0.63 against 0.70 ± 0.03 (−0.07, beyond noise at 95 %)')
    expect(cells(md)).toEqual([{...GROUP, Verdict: '❌ regressed'}])
    // detectable for the mean of 2: (t(c, 4) + t(0.8, 4)) × sd × √(1/2 + 1/5), c = 1 − (0.05 − s): the score
    // test's share once the failure test of the history's 5 runs (none failed) took its size s = 1/84
    expect(collapsed(md)[0]).toBe('- **codex / gpt-5**: run_1 0.64 (succeeded), run_2 0.62 (succeeded)')
    expect(collapsed(md)[1]).toContain(' · Detectable 0.09 · K 2 · ')
    expect(collapsed(md)[2]).toBe(
      '  Scored 0.63 (mean of 2 runs), 0.07 below the mean of 5 earlier runs (0.70 ± 0.03): beyond noise at 95 %.',
    )
  })

  it('runs watch --baseline-file --update-baseline, a step of 5 runs at 0.77 on a file of 20 at 0.84: the summary says the update makes the new level the baseline', async () => {
    const file = join(tempDir('amctl-summary-file-'), 'baseline.json')
    const scores = [0.84, 0.82, 0.86, 0.83, 0.85, 0.84, 0.81, 0.87, 0.84, 0.84, 0.83, 0.85, 0.86, 0.82, 0.84, 0.84, 0.85, 0.83, 0.82, 0.86]
    const at = (minutes: number) => new Date(Date.parse('2026-01-15T09:00:00.000Z') + minutes * 60_000).toISOString()
    writeBaseline(file, {savedAt: at(30)}, [
      {agent: 'codex', model: 'gpt-5', runs: scores.map((score, i) => ({id: `f${i}`, score, createdAt: at(i)}))},
    ])
    const step = [0.77, 0.76, 0.78, 0.77, 0.77].map((score, i) => gatedRun(`s${i + 1}`, 1 - i / 10, score))
    serveRuns(api, step)
    const summary = join(tempDir('amctl-summary-'), 'summary.md')
    const argv = [...step.map((run) => run.id), '--org', 'acme', '--baseline-file', file, '--update-baseline', '--summary', summary]
    const r = await runCommand(RunsWatch, [...argv, '--json'], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(10)
    const md = readFileSync(summary, 'utf8')
    // the warning, after the line that says what the file took in
    const lines = md.split('\n')
    const took = lines.indexOf(`The baseline file ${file} took in 5 runs (--update-baseline).`)
    expect(took, md).toBeGreaterThan(0)
    expect(lines.slice(took + 1, took + 3)).toEqual([
      '',
      '⚠️ codex / gpt-5 moved from 0.84 to 0.77 at s1 (−0.07, 4.4 sd): this update makes it the baseline.',
    ])
    // the pull-request comment, drawn from the step's --json (its `gate`, changes and all, checked against the result's schema)
    expect(await commentOf(r.stdout)).toBe(md)
  })

  it('evals run --repeat 2 --baseline-file, the group stale: the Baseline cell says so, and a line gives the command that refreshes the file', async () => {
    const file = join(tempDir('amctl-summary-file-'), 'baseline.json')
    await saveBaselineFile(api, file)
    numberedLaunches(api)
    serveRuns(api, [gatedRun('run_2', 0.5, 0.62, {batchId: 'b_2'}), gatedRun('run_1', 0.5, 0.64, {batchId: 'b_1'})])
    // the file's newest run is two hours old
    const md = await summaryOf(EvalsRun, ['es_1', '--wait', '--repeat', '2', '--baseline-file', file, '--baseline-max-age', '1h'], 0)
    expect(md.split('\n')[0]).toBe('### ✅ 1 group passed')
    expect(cells(md)).toEqual([{...GROUP, Baseline: '0.70 ± 0.03 ⚠️ stale', Verdict: '✅ passed'}])
    expect(md).toContain(`\n⚠️ The baseline file ${file} is stale for **codex / gpt-5**: no run newer than 1h (--baseline-max-age).`)
    expect(md).toContain(
      ` Refresh it: \`amctl evals run es_1 --org acme --wait --repeat 5 --json | amctl evals baseline save es_1 --org acme --file ${file} --runs -\`, or`,
    )
  })
})
