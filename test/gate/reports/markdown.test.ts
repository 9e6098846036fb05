import {marked, type Tokens} from 'marked'
import {describe, expect, it} from 'vitest'
import {markdownSummary} from '../../../src/gate/reports/markdown.js'
import {sampleReport} from './fixtures.js'

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
