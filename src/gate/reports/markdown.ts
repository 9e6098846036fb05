import {markdownText} from '../../output/sanitize.js'
import {newestForTrend, sparkline} from '../../output/sparkline.js'
import {flagDuration} from '../../output/time.js'
import {type GateResult, sampleOf, type GroupResult, type RunResult, verdictText} from '../result.js'
import type {GateBaseline} from '../rules.js'

/**
 * `--summary PATH` (and, in GitHub Actions, the job summary): the report as Markdown — a one-line
 * verdict, a table of the runs (run, eval set, agent, model, status, score, baseline, delta,
 * verdict) or with --repeat of the groups, then the failures and the notes (within noise,
 * improved, flaky, no baseline), each in one sentence, and what the runs were held to. A
 * history baseline shows `mean ± sd (n)` and a sparkline of its scores, so a reader sees the
 * noise a verdict was judged against. Every server string goes through markdownText
 * (src/output/sanitize.ts): it stays text, one line, inside its table cell.
 */

const MARK: Record<GateResult['end'], string> = {passed: '✅', 'not-passed': '❌', timeout: '⏱️', interrupted: '⏹️', error: '⚠️'}

const score = (n: number | null | undefined): string => (typeof n === 'number' ? n.toFixed(2) : '—')
const signed = (n: number | null | undefined): string => (typeof n === 'number' ? `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(2)}` : '—')
const cell = (value: string | null): string => (value === null ? '—' : markdownText(value))
const percent = (c: number): string => `${Number((c * 100).toFixed(2))} %`

function baselineCell(baseline: GateBaseline | null | undefined): string {
  if (baseline === undefined) return '—'
  if (baseline === null) return 'no baseline'
  const history = sampleOf(baseline)
  if (history) {
    const stale = history.kind === 'file' && history.stale ? ' ⚠️ stale' : ''
    return `${score(history.mean)} ± ${score(history.sd)} (${history.runs}) ${sparkline(newestForTrend(history.scores))}${stale}`
  }
  if ('runId' in baseline) return `${markdownText(baseline.runId)} (${score(baseline.score)})`
  return '—'
}

const MARKS: Record<RunResult['outcome'], string> = {failed: '❌', skipped: '⏳', passed: '✅'}

function statusCell(run: RunResult): string {
  return `${MARKS[run.outcome]} ${run.status === null ? 'not found yet' : markdownText(run.status)}`
}

/** What the runs were held to, in the flags' words, with the correction of the history gate. */
function rulesLine(report: GateResult): string {
  const {rules} = report
  const each = report.groups ? 'group (the mean of its runs)' : 'run'
  const parts = ['succeed']
  if (rules.minScore !== undefined) parts.push(`score at least ${rules.minScore} (--min-score)`)
  const noise = rules.baseline === 'history' || rules.baseline === 'file'
  if (rules.maxDrop !== undefined && !noise) parts.push(`score at most ${rules.maxDrop} below its baseline (--max-drop)`)
  if (rules.baseline === 'history') parts.push('score within the noise of its history')
  if (rules.baseline === 'file') parts.push('score within the noise of its runs in the baseline file')
  let line = `Each ${each} must ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`}.`
  const window = rules.baselineWindowS ? `, created at most ${flagDuration(rules.baselineWindowS)} before it` : ' created before it'
  if (rules.baseline === 'history') {
    const confidence = rules.confidence ?? 0.95
    const m = rules.comparisons ?? 0
    const each = m > 1 ? `: Bonferroni over the ${m} groups compared, each at ${percent(1 - (1 - confidence) / m)}` : ''
    const drop = rules.maxDrop !== undefined ? ` and by at least ${rules.maxDrop} (--max-drop)` : ''
    line +=
      ` Baseline: the newest ${rules.baselineRuns ?? 20} runs of the same eval set, agent and model that succeeded with a score${window}` +
      ` (--baseline history; at least 3, outliers set aside). A regression is a score below their mean by more than the noise margin${drop},` +
      ` at ${percent(confidence)} for the whole step${each}.`
  } else if (rules.baseline === 'file' && rules.baselineFile !== undefined) {
    const {path, savedAt, maxAgeS} = rules.baselineFile
    const confidence = rules.confidence ?? 0.95
    const m = rules.comparisons ?? 0
    const each = m > 1 ? `: Bonferroni over the ${m} groups compared, each at ${percent(1 - (1 - confidence) / m)}` : ''
    const drop = rules.maxDrop !== undefined ? ` and by at least ${rules.maxDrop} (--max-drop)` : ''
    const age = maxAgeS > 0 ? `; a group whose newest run is older than ${flagDuration(maxAgeS)} is stale (--baseline-max-age)` : ''
    line +=
      ` Baseline: the runs of the same agent and model in the baseline file ${markdownText(path)}, saved ${markdownText(savedAt)} (--baseline-file; at least 3${age}).` +
      ` A regression is a score below their mean by more than the noise margin${drop}, at ${percent(confidence)} for the whole step${each};` +
      ` the margin is a tolerance bound, so that this file's own false alarms stay within ${percent(1 - confidence)} (9 files in 10).`
  } else if (rules.baseline === 'previous') {
    line += ` Baseline: the newest run of the same eval set, agent and model that succeeded with a score${window} (--baseline previous).`
  } else if (rules.baseline !== undefined) {
    line += ` Baseline: run ${markdownText(rules.baseline)} for every run (--baseline).`
  }
  if (rules.requireBaseline) line += ' A run without a baseline fails (--require-baseline).'
  return line
}

/** With a history or a baseline file: the smallest drop each judgement could see (its `detectable`). */
const seesNoise = (report: GateResult): boolean => report.rules.baseline === 'history' || report.rules.baseline === 'file'

function runTable(report: GateResult, lines: string[]): void {
  const gated = report.rules.baseline !== undefined
  const sees = seesNoise(report)
  lines.push(
    `| Run | Eval set | Agent | Model | Status | Score |${gated ? ' Baseline | Δ |' : ''}${sees ? ' Detectable |' : ''} Verdict |`,
    `|---|---|---|---|---|--:|${gated ? '---|--:|' : ''}${sees ? '--:|' : ''}---|`,
  )
  for (const run of report.runs) {
    const baseline = (gated ? ` ${baselineCell(run.baseline)} | ${signed(run.delta)} |` : '') + (sees ? ` ${score(run.detectable)} |` : '')
    lines.push(
      `| ${markdownText(run.id)} | ${cell(run.evalSetId)} | ${cell(run.agent)} | ${cell(run.model)} | ${statusCell(run)} | ${score(run.score)} |${baseline} ${run.verdict} |`,
    )
  }
}

function groupTable(report: GateResult, groups: GroupResult[], lines: string[]): void {
  const gated = report.rules.baseline !== undefined
  const sees = seesNoise(report)
  const auto = report.rules.auto !== undefined
  lines.push(
    `| Eval set | Agent | Model | Runs | Scores | Score |${gated ? ' Baseline | Δ |' : ''}${sees ? ' Detectable |' : ''}${auto ? ' Decided |' : ''} Verdict |`,
    `|---|---|---|---|---|--:|${gated ? '---|--:|' : ''}${sees ? '--:|' : ''}${auto ? '--:|' : ''}---|`,
  )
  for (const group of groups) {
    const decided = auto ? ` ${group.decidedAt == null ? '—' : `launch ${group.decidedAt}`} |` : ''
    const baseline =
      (gated ? ` ${baselineCell(group.baseline)} | ${signed(group.delta)} |` : '') + (sees ? ` ${score(group.detectable)} |` : '') + decided
    const runs = `${group.runIds.length}${group.failures > 0 ? ` (${group.failures} failed)` : ''}`
    const scores = group.scores.map((s) => score(s)).join(', ')
    const verdict = group.flaky && group.verdict !== 'failed' ? `${group.verdict} (flaky)` : group.verdict
    lines.push(
      `| ${cell(group.evalSetId)} | ${cell(group.agent)} | ${cell(group.model)} | ${runs} | ${scores} | ${score(group.score)} |${baseline} ${MARKS[group.outcome]} ${verdict} |`,
    )
  }
}

/** The Markdown summary of `report`. */
export function markdownSummary(report: GateResult): string {
  const lines = [`### ${MARK[report.end]} amctl: ${markdownText(verdictText(report))}`, '']
  const items: Array<RunResult | GroupResult> = report.groups ?? report.runs
  const name = (item: RunResult | GroupResult): string =>
    'runIds' in item ? markdownText(item.id) : `${markdownText(item.id)} (${cell(item.agent)} / ${cell(item.model)})`
  if (report.groups) groupTable(report, report.groups, lines)
  else runTable(report, lines)
  const failures = items.filter((item) => item.outcome === 'failed')
  if (failures.length > 0) {
    lines.push('', '**Failures**', '')
    for (const item of failures) lines.push(`- ${name(item)}: ${markdownText(item.failure?.reason ?? 'did not pass')}`)
  }
  const notes = items.filter((item) => item.outcome !== 'failed' && item.note !== undefined)
  if (notes.length > 0) {
    lines.push('', '**Notes**', '')
    for (const item of notes) lines.push(`- ${name(item)}: ${markdownText(item.note as string)}`)
  }
  const unfinished = items.filter((item) => item.outcome === 'skipped')
  if (unfinished.length > 0) {
    lines.push('', '**Not finished**', '')
    for (const item of unfinished) lines.push(`- ${markdownText(item.id)}: ${markdownText(item.skipped ?? 'not finished')}`)
  }
  lines.push('', rulesLine(report))
  const {auto, resolution} = report.rules
  if (auto !== undefined) {
    const last =
      auto.lastFor.length === 0
        ? ''
        : `; the last for ${auto.lastFor.map((id) => markdownText(id)).join(', ')}, undecided after ${auto.launches - 1}`
    lines.push(
      `${auto.launches} launch${auto.launches === 1 ? '' : 'es'} (--repeat auto, at most ${auto.maxRepeat}): one at a time, until each group regressed or was cleared of a drop of ${report.rules.maxDrop} (--max-drop)${last}.`,
    )
    const inconclusive = items.filter((item) => item.verdict === 'inconclusive')
    if (inconclusive.length > 0) {
      const fails = inconclusive.some((item) => item.outcome === 'failed')
        ? ': they fail the step (--fail-inconclusive)'
        : '; --fail-inconclusive would fail the step on them'
      lines.push(`⚠️ Inconclusive: ${inconclusive.map((item) => name(item)).join(', ')}${fails}.`)
    }
  }
  if (resolution !== undefined) {
    const would =
      resolution.repeat === null
        ? `no --repeat up to ${resolution.upTo} would see ${resolution.maxDrop} against baselines of so few runs`
        : `--repeat ${resolution.repeat} would see ${resolution.maxDrop}`
    lines.push(`⚠️ This step could only see drops of ${score(resolution.detectable)} or more; ${would} (--max-drop ${resolution.maxDrop}).`)
  }
  const stale = items.filter((item) => sampleOf(item.baseline)?.kind === 'file' && (sampleOf(item.baseline) as {stale: boolean}).stale)
  if (stale.length > 0 && report.rules.baselineFile !== undefined) {
    const {path, maxAgeS} = report.rules.baselineFile
    const fails = report.rules.requireBaseline ? ': they fail (--require-baseline)' : ''
    lines.push(
      '',
      `⚠️ The baseline file ${markdownText(path)} is stale for ${stale.map((item) => name(item)).join(', ')}: no run newer than ${flagDuration(maxAgeS)} (--baseline-max-age)${fails}. Refresh it: \`amctl evals baseline save\`, or \`--update-baseline\` on the default branch.`,
    )
  }
  const without = items.filter((item) => item.baseline === null)
  if (
    without.length > 0 &&
    report.rules.baseline !== undefined &&
    report.rules.baseline !== 'history' &&
    report.rules.baseline !== 'file' &&
    !report.rules.requireBaseline
  ) {
    const which = without.map((item) => markdownText(item.id)).join(', ')
    const held = report.rules.maxDrop === undefined ? '' : ': not held to --max-drop'
    lines.push(`No baseline for ${which} (no such run was found)${held}.`)
  }
  return `${lines.join('\n')}\n`
}
