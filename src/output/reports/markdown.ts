import {markdownText} from '../sanitize.js'
import {flagDuration} from '../time.js'
import {type CiReport, type ReportRun, verdictText} from './model.js'

/**
 * `--summary PATH` (and, in GitHub Actions, the job summary): the report as Markdown — a one-line
 * verdict, a table of the runs (run, eval set, agent, model, status, score, baseline, delta),
 * then the failures, and what the runs were held to. Every server string goes through
 * markdownText (src/output/sanitize.ts): it stays text, one line, inside its table cell.
 */

const MARK: Record<CiReport['end'], string> = {passed: '✅', 'not-passed': '❌', timeout: '⏱️', interrupted: '⏹️'}

const score = (n: number | null | undefined): string => (typeof n === 'number' ? n.toFixed(2) : '—')
const signed = (n: number | null | undefined): string => (typeof n === 'number' ? `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(2)}` : '—')
const cell = (value: string | null): string => (value === null ? '—' : markdownText(value))

function baselineCell(run: ReportRun): string {
  if (run.baseline === undefined) return '—'
  if (run.baseline === null) return 'no baseline'
  return `${markdownText(run.baseline.runId)} (${score(run.baseline.score)})`
}

function statusCell(run: ReportRun): string {
  const status = run.status === null ? 'not found yet' : markdownText(run.status)
  if (run.outcome === 'failed') return `❌ ${status}`
  if (run.outcome === 'skipped') return `⏳ ${status}`
  return `✅ ${status}`
}

/** What the runs were held to, in the flags' words. */
function rulesLine(report: CiReport): string {
  const {rules} = report
  const parts = ['succeed']
  if (rules.minScore !== undefined) parts.push(`score at least ${rules.minScore} (--min-score)`)
  if (rules.maxDrop !== undefined) parts.push(`score at most ${rules.maxDrop} below its baseline (--max-drop)`)
  let line = `Each run must ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`}.`
  if (rules.baseline === 'previous') {
    const window = rules.baselineWindowS ? `, created at most ${flagDuration(rules.baselineWindowS)} before it` : ' created before it'
    line += ` Baseline: the newest run of the same eval set, agent and model that succeeded with a score${window} (--baseline previous).`
  } else if (rules.baseline !== undefined) {
    line += ` Baseline: run ${markdownText(rules.baseline)} for every run (--baseline).`
  }
  return line
}

/** The Markdown summary of `report`. */
export function markdownSummary(report: CiReport): string {
  const lines = [`### ${MARK[report.end]} amctl: ${markdownText(verdictText(report))}`, '']
  lines.push('| Run | Eval set | Agent | Model | Status | Score | Baseline | Δ |', '|---|---|---|---|---|--:|---|--:|')
  for (const run of report.runs) {
    const delta = run.baseline === undefined ? '—' : signed(run.delta)
    lines.push(
      `| ${markdownText(run.id)} | ${cell(run.evalSetId)} | ${cell(run.agent)} | ${cell(run.model)} | ${statusCell(run)} | ${score(run.score)} | ${baselineCell(run)} | ${delta} |`,
    )
  }
  const failures = report.runs.filter((run) => run.outcome === 'failed')
  if (failures.length > 0) {
    lines.push('', '**Failures**', '')
    for (const run of failures) {
      lines.push(
        `- ${markdownText(run.id)} (${cell(run.agent)} / ${cell(run.model)}): ${markdownText(run.failure?.reason ?? 'did not pass')}`,
      )
    }
  }
  const unfinished = report.runs.filter((run) => run.outcome === 'skipped')
  if (unfinished.length > 0) {
    lines.push('', '**Not finished**', '')
    for (const run of unfinished) lines.push(`- ${markdownText(run.id)}: ${markdownText(run.skipped ?? 'not finished')}`)
  }
  lines.push('', rulesLine(report))
  const without = report.runs.filter((run) => run.baseline === null)
  if (without.length > 0 && report.rules.baseline !== undefined) {
    const which = without.map((run) => markdownText(run.id)).join(', ')
    const held = report.rules.maxDrop === undefined ? '' : ': not held to --max-drop'
    lines.push(`No baseline for ${which} (no such run was found)${held}.`)
  }
  return `${lines.join('\n')}\n`
}
