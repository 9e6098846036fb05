import {markdownCommand, markdownText} from '../../output/sanitize.js'
import {shellLine} from '../../output/shell.js'
import {flagDuration} from '../../output/time.js'
import {groupName} from '../baseline-file.js'
import {FIGURE_LIST, type Figure, gives, type SummaryShow} from '../figures.js'
import {type GateResult, type GroupResult, type RunResult, sampleOf, verdictText} from '../result.js'
import type {BaselineChoice, GateBaseline} from '../rules.js'
import {percent, resolutionText, two, updateWarnings} from '../words.js'

/**
 * `--summary PATH`, the job summary in GitHub Actions, and the pull-request comment the Action
 * posts (`amctl evals comment` prints it from a wait's --json): the result as a reviewer reads it
 * at a glance, in a comment about 770 px wide (docs/ci-reference.md "The comment on the pull request").
 *
 * 1. A headline that names what failed and by how much (the worst first, and how many did not
 *    pass), or a pass in one line with how many.
 * 2. One table of at most five columns (group or run, score, baseline, Δ, verdict) that fits
 *    without scrolling sideways: one row per group with --repeat, else per run.
 * 3. What to do, a line for each failing verdict, from its decision (./rules.ts Decision): the
 *    runs to look at and the command that refreshes the baseline, the failed runs, what more
 *    launches would decide; and the warnings (a stale file, an inconclusive group, a drop the
 *    step could not see, the baseline file's update and each group whose level moved or that fails
 *    more, which the update makes the baseline: ../words.ts updateWarnings).
 * 4. Everything else in a collapsed `<details>`: each group's runs, its figures (the FIGURES
 *    with a `summary` label, ../figures.ts), the sentence of its verdict, and the method in two
 *    sentences with a link to docs/ci.md.
 *
 * Every server string goes through markdownText (src/output/sanitize.ts): it stays text, on one
 * line, inside its cell, and mentions no one; a command is a code span only when every word of it
 * can be shown as it is (markdownCommand).
 */

export interface SummaryOptions {
  /** where amctl's docs are (the Action passes its own release's: AMCTL_DOCS_URL); without it the method names docs/ci.md unlinked */
  docsUrl?: string
}

type Item = RunResult | GroupResult

const isGroup = (item: Item): item is GroupResult => 'runIds' in item

const MARK: Record<GateResult['end'], string> = {passed: '✅', 'not-passed': '❌', timeout: '⏱️', interrupted: '⏹️', error: '⚠️'}

const score = (n: number | null | undefined): string => (typeof n === 'number' ? two(n) : '—')
const signed = (n: number | null | undefined): string => (typeof n === 'number' ? `${n >= 0 ? '+' : '−'}${two(Math.abs(n))}` : '—')
const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : noun.endsWith('h') ? 'es' : 's'}`
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1)

/** What the report is of: how items are named, and the commands of its advice. */
interface Context {
  result: GateResult
  items: Item[]
  /** the step's runs are of more than one eval set: names carry theirs */
  severalSets: boolean
}

/** An item's agent / model (and eval set when the step has several), for Markdown. */
function nameOf(item: Item, ctx: Context): string {
  const name = markdownText(groupName({agent: item.agent, model: item.model}))
  return ctx.severalSets ? `${markdownText(item.evalSetId ?? '(unknown eval set)')}: ${name}` : name
}

const UNSHOWABLE = '(a command whose words a comment cannot show as they are)'

/** A command line as a code span, or (a word it cannot show as it is) a sentence that says so. */
function command(words: string[]): string {
  return markdownCommand(shellLine(words)) ?? UNSHOWABLE
}

const orgWords = (ctx: Context): string[] => ['--org', ctx.result.org]

/**
 * The items as the advice, the notes and the collapsed part speak of them: a plain step's runs
 * judged as one group (its relaunches) once, with every run of it, since what is said is the group's.
 */
type Entry = Item & {ids: string[]}

function entries(ctx: Context): Entry[] {
  const out: Entry[] = []
  for (const item of ctx.items) {
    const same = isGroup(item)
      ? undefined
      : out.find(
          (e) =>
            !isGroup(e) &&
            e.evalSetId === item.evalSetId &&
            e.agent === item.agent &&
            e.model === item.model &&
            e.decision !== undefined &&
            JSON.stringify(e.decision) === JSON.stringify(item.decision),
        )
    if (same !== undefined) same.ids.push(item.id)
    else out.push({...item, ids: isGroup(item) ? [...item.runIds] : [item.id]} as Entry)
  }
  return out
}

/** How far a failing item is from passing, to put the worst first: failures, then drops in units of their noise, then the rest. */
function severity(item: Item): [number, number] {
  const d = item.decision
  if (d === undefined) return [5, 0]
  switch (d.rule) {
    case 'failure-rate':
    case 'status':
      return [0, -(d.failed / Math.max(1, d.of))]
    case 'noise':
      return [1, (item.delta ?? 0) / Math.max(d.baseline.sd, 1e-9)]
    case 'max-drop':
      return [1, item.delta ?? 0]
    case 'min-score':
      return [2, item.score ?? -1]
    case 'no-baseline':
      return [3, 0]
    default:
      return [4, 0]
  }
}

const byWorst = (a: Item, b: Item): number => {
  const [ra, ma] = severity(a)
  const [rb, mb] = severity(b)
  return ra - rb || ma - mb
}

/** The headline's words for a failing item: "codex / gpt-5 regressed: 0.77 against 0.84 ± 0.02 (−0.07, beyond noise at 95 %)". */
function whatFailed(item: Item, ctx: Context): string {
  const name = `**${nameOf(item, ctx)}**`
  const d = item.decision
  const runs = (n: number) => plural(n, 'run')
  switch (d?.rule) {
    case 'noise': {
      const beyond =
        d.bar === 'max-drop' ? `beyond --max-drop ${d.maxDrop}` : `beyond noise at ${percent(ctx.result.rules.confidence ?? 0.95)}`
      if (item.score === null || item.delta == null)
        return `${name} succeeded without a score (a baseline of ${score(d.baseline.mean)} ± ${score(d.baseline.sd)})`
      return `${name} regressed: ${score(item.score)} against ${score(d.baseline.mean)} ± ${score(d.baseline.sd)} (${signed(item.delta)}, ${beyond})`
    }
    case 'max-drop':
      if (item.score === null || item.delta == null)
        return `${name} succeeded without a score (baseline run ${markdownText(d.against.runId)})`
      return `${name} regressed: ${score(item.score)} against ${score(d.against.score)} of run ${markdownText(d.against.runId)} (${signed(item.delta)}, beyond --max-drop ${d.maxDrop})`
    case 'failure-rate':
      return `${name} failed ${d.failed} of ${runs(d.of)}, beyond its baseline's rate (${d.baseline.failed} of ${d.baseline.finished} failed)`
    case 'status': {
      const statuses = [...new Set(d.statuses)].map((s) => markdownText(s)).join(', ')
      return `${name}: ${d.failed} of ${runs(d.of)} did not succeed (${statuses})`
    }
    case 'min-score':
      return d.unscored || item.score === null
        ? `${name} succeeded without a score (--min-score ${d.minScore})`
        : `${name} scored ${score(item.score)}, below --min-score ${d.minScore}`
    case 'no-baseline':
      return `${name} has no baseline (--require-baseline)`
    case 'sequential':
      return `${name} is inconclusive after ${plural(d.looks, 'launch')}: a drop of up to ${score(d.upper)} is not ruled out (${bar(d.maxDrop, ctx)}, --fail-inconclusive)`
    case 'no-success':
      return `${name}: no run of ${d.of} succeeded (${d.failed} failed, ${d.cancelled} cancelled; --fail-inconclusive)`
    default:
      return `${name}: ${markdownText(item.failure?.reason ?? 'did not pass')}`
  }
}

function headline(ctx: Context): string {
  const {result, items} = ctx
  const noun = result.groups ? 'group' : 'run'
  const failing = items.filter((item) => item.outcome === 'failed').sort(byWorst)
  const count = `${failing.length} of ${plural(items.length, noun)} did not pass`
  if (result.end === 'not-passed' && failing.length > 0) {
    const worst = whatFailed(failing[0], ctx)
    return `### ${MARK[result.end]} ${worst}${items.length === 1 ? '' : ` · ${count}`}`
  }
  const said = `${MARK[result.end]} ${capital(markdownText(verdictText(result)))}`
  if (result.end !== 'passed' && failing.length > 0) return `### ${said} · worst: ${whatFailed(failing[0], ctx)}`
  const open = entries(ctx).filter((item) => item.outcome === 'passed' && item.verdict === 'inconclusive')
  if (result.end === 'passed' && open.length > 0) {
    const rest = items.length === 1 ? 'the step passes' : `the step passes: ${plural(items.length, noun)}`
    return `### ⚠️ ${undecided(open[0], ctx)}${open.length > 1 ? ` (and ${open.length - 1} more)` : ''} · ${rest}`
  }
  return `### ${said}`
}

/** The --max-drop a group was held to: `--max-drop 0.05`, or `--max-drop 3sd: 0.06` (its own sd's multiple). */
function bar(maxDrop: number, ctx: Context): string {
  const sd = ctx.result.rules.maxDropSd
  return sd === undefined ? `--max-drop ${maxDrop}` : `--max-drop ${sd}sd: ${score(maxDrop)}`
}

/** An inconclusive item that does not fail the step, in words: "codex / gpt-5 is inconclusive after 3 launches: …". */
function undecided(item: Item, ctx: Context): string {
  const d = item.decision
  const name = `**${nameOf(item, ctx)}**`
  if (d?.rule === 'sequential')
    return `${name} is inconclusive after ${plural(d.looks, 'launch')}: a drop of up to ${score(d.upper)} is not ruled out (${bar(d.maxDrop, ctx)})`
  if (d?.rule === 'no-success')
    return `${name} is inconclusive: no run of ${d.of} succeeded (${d.failed} failed within its rate, ${d.cancelled} cancelled)`
  return `${name} is inconclusive`
}

/** The baseline's cell: `mean ± sd` of many runs, a run's score, none. */
function baselineCell(baseline: GateBaseline | null | undefined): string {
  if (baseline === undefined) return '—'
  if (baseline === null) return 'none'
  const sample = sampleOf(baseline)
  if (sample !== undefined) {
    const stale = sample.kind === 'file' && sample.stale ? ' ⚠️ stale' : ''
    return `${score(sample.mean)} ± ${score(sample.sd)}${stale}`
  }
  if ('runId' in baseline) return `${score(baseline.score)}<br><sub>${markdownText(baseline.runId)}</sub>`
  return '—'
}

/** The verdict's cell, its mark agreeing with it: ❌ a failing verdict, ⏳ not finished or not judged, ⚠️ inconclusive, ✅ the rest. */
function verdictCell(item: Item): string {
  const failures = item.outcomes === undefined ? 0 : item.outcomes.failed + item.outcomes.cancelled
  const flaky = item.outcome === 'passed' && (isGroup(item) ? item.flaky : failures > 0) ? ', flaky' : ''
  if (item.outcome === 'failed') return `❌ ${item.verdict}`
  if (item.outcome === 'skipped') return `⏳ ${item.verdict}`
  if (item.verdict === 'inconclusive') return '⚠️ inconclusive'
  return `✅ ${item.verdict}${flaky}`
}

/** A score's cell: a run's score, or a group's mean with how many runs it holds and how many failed. */
function scoreCell(item: Item): string {
  if (!isGroup(item)) return item.status === 'succeeded' || item.status === null ? score(item.score) : markdownText(item.status)
  const failed = item.failures > 0 ? `${item.k > 0 ? ', ' : ''}${item.failures} failed` : ''
  const of = item.k > 0 ? `mean of ${item.k}` : ''
  return of === '' && failed === '' ? score(item.score) : `${score(item.score)}<br><sub>${of}${failed}</sub>`
}

function table(ctx: Context, lines: string[]): void {
  const gated = ctx.result.rules.baseline !== undefined
  const head = ctx.result.groups ? 'Group' : 'Run'
  lines.push(`| ${head} | Score |${gated ? ' Baseline | Δ |' : ''} Verdict |`, `|---|--:|${gated ? '--:|--:|' : ''}---|`)
  for (const item of ctx.items) {
    const name = isGroup(item) ? nameOf(item, ctx) : `${nameOf(item, ctx)}<br><sub>${markdownText(item.id)}</sub>`
    const baseline = gated ? ` ${baselineCell(item.baseline)} | ${signed(item.delta)} |` : ''
    lines.push(`| ${name} | ${scoreCell(item)} |${baseline} ${verdictCell(item)} |`)
  }
}

/** The IDs of an item's runs, as Markdown (at most `max` named). */
function runIdsText(ids: readonly string[], max = 5): string {
  const named = ids.slice(0, max).map((id) => markdownText(id))
  return ids.length > max ? `${named.join(', ')} and ${ids.length - max} more` : named.join(', ')
}

const idsOf = (item: Item | Entry): string[] => ('ids' in item ? item.ids : isGroup(item) ? item.runIds : [item.id])

/** The runs of an item that failed (or with `statuses`, had one of those statuses). */
function runsWith(item: Item, ctx: Context, statuses: readonly string[]): string[] {
  const ids = new Set(idsOf(item))
  return ctx.result.runs.filter((run) => ids.has(run.id) && run.status !== null && statuses.includes(run.status)).map((run) => run.id)
}

/** The command that makes the baseline file anew from fresh runs (docs/ci.md "The baseline file"). */
function refreshCommand(ctx: Context, evalSetId: string, path: string): string {
  const org = orgWords(ctx)
  const launch = shellLine(['amctl', 'evals', 'run', evalSetId, ...org, '--wait', '--repeat', '5', '--json'])
  const save = shellLine(['amctl', 'evals', 'baseline', 'save', evalSetId, ...org, '--file', path, '--runs', '-'])
  return markdownCommand(`${launch} | ${save}`) ?? UNSHOWABLE
}

/** What to do about a failing item, from its decision; undefined when there is nothing to add to the headline and the table. */
function adviceFor(item: Item, ctx: Context): string | undefined {
  const name = `**${nameOf(item, ctx)}**`
  const d = item.decision
  const {rules} = ctx.result
  const evalSet = item.evalSetId
  const file = rules.baselineFile
  switch (d?.rule) {
    case 'noise':
    case 'max-drop': {
      const look =
        evalSet === null
          ? `look at its runs (${runIdsText(idsOf(item))})`
          : `look at its runs (${runIdsText(idsOf(item))}) beside its history: ${command(['amctl', 'evals', 'stats', evalSet, ...orgWords(ctx)])}`
      let intended: string
      if (d.rule === 'max-drop') intended = 'if the drop is intended, the next step compares with this run (--baseline previous)'
      else if (file !== undefined && evalSet !== null)
        intended = `if the drop is intended, make the new level the baseline and commit the file: ${refreshCommand(ctx, evalSet, file.path)}`
      else
        intended = `if the drop is intended, there is no file to refresh: the history takes the new level in once it holds the newest ${rules.baselineRuns ?? 20} runs`
      return `${name} regressed: ${look}; ${intended}.`
    }
    case 'failure-rate':
    case 'status': {
      const failed = runsWith(item, ctx, d.rule === 'status' ? d.statuses : ['failed'])
      const list =
        evalSet === null || item.agent === null || item.model === null
          ? ''
          : `; its failures over time: ${command(['amctl', 'runs', 'list', ...orgWords(ctx), '--eval-set', evalSet, '--agent', item.agent, '--model', item.model, '--status', 'failed,cancelled'])}`
      const unknown =
        d.rule === 'status' && d.unknown
          ? '; the baseline file records no failures (version 1): save it again to judge them against its rate'
          : ''
      return `${name}: look at the failed runs (${runIdsText(failed.length > 0 ? failed : idsOf(item))})${list}${unknown}.`
    }
    case 'min-score':
      return `${name}: look at ${isGroup(item) ? 'its runs' : 'the run'} (${runIdsText(idsOf(item))}).`
    case 'no-baseline':
      if (file !== undefined && evalSet !== null)
        return `${name} has no runs in ${markdownText(file.path)} to be judged against: save them into the file: ${refreshCommand(ctx, evalSet, file.path)}.`
      return `${name} has no baseline: ${markdownText(item.failure?.reason ?? 'none was found')}.`
    case 'sequential':
      return `${name}: more launches would decide it (--max-repeat above ${d.looks}, up to 20), or re-run the step; a --max-drop of ${score(d.upper)} or more is cleared already.`
    case 'no-success':
      return `${name}: no run succeeded in ${plural(d.of, 'launch')}; re-run the step (cancelled runs say nothing about the agent).`
    default:
      return undefined
  }
}

/** The warnings: what passed but should be looked at, and what the step could not do. */
function warnings(ctx: Context): string[] {
  const {result, items} = ctx
  const out: string[] = []
  const {rules} = result
  const file = rules.baselineFile
  const stale = items.filter((item) => {
    const sample = sampleOf(item.baseline)
    return sample?.kind === 'file' && sample.stale && item.outcome !== 'failed'
  })
  if (stale.length > 0 && file !== undefined) {
    const sets = [...new Set(stale.map((item) => item.evalSetId).filter((id): id is string => id !== null))]
    const refresh = sets.map((set) => refreshCommand(ctx, set, file.path)).join(' and ')
    out.push(
      `⚠️ The baseline file ${markdownText(file.path)} is stale for ${stale.map((item) => `**${nameOf(item, ctx)}**`).join(', ')}: no run newer than ${flagDuration(file.maxAgeS)} (--baseline-max-age). Refresh it: ${refresh}, or let the default branch add its runs (--update-baseline).`,
    )
  }
  for (const item of entries(ctx)) {
    if (item.outcome === 'failed' || item.verdict !== 'inconclusive') continue
    const more =
      item.decision?.rule === 'sequential'
        ? 'more launches would decide it (a larger --max-repeat), or a --max-drop the step can clear'
        : 'no launch was left to decide it: re-run the step'
    out.push(`⚠️ ${undecided(item, ctx)}; ${more}. --fail-inconclusive would fail the step on it.`)
  }
  for (const item of entries(ctx)) {
    const o = item.outcomes
    if (item.outcome !== 'passed' || item.verdict === 'inconclusive' || o === undefined || o.failed + o.cancelled === 0) continue
    const failed =
      o.failed > 0 && o.baseline !== null
        ? `${o.failed} failed within its rate (${o.baseline.failed} of ${o.baseline.finished} baseline runs failed)`
        : ''
    const cancelled = o.cancelled > 0 ? `${o.cancelled} cancelled, which says nothing about the agent` : ''
    const said = [failed, cancelled].filter((part) => part !== '').join(', ')
    out.push(`**${nameOf(item, ctx)}** passed on its other runs: ${said}.`)
  }
  if (rules.resolution !== undefined) out.push(`⚠️ ${capital(resolutionText(rules.resolution))}.`)
  const update = result.baselineUpdate
  if (update?.error !== undefined)
    out.push(`⚠️ The baseline file ${markdownText(update.path)} was not updated: ${markdownText(update.error.message)}.`)
  else if (update?.updated)
    out.push(`The baseline file ${markdownText(update.path)} took in ${plural(update.added, 'run')} (--update-baseline).`)
  // a group whose level moved or that fails more, which the update makes the baseline (../update.ts)
  if (update !== undefined) out.push(...updateWarnings(update).map((line) => `⚠️ ${markdownText(line)}.`))
  return out
}

/** The runs of a group, or a run, as the collapsed part lists them: ID, score, status. */
function runsLine(item: Entry, result: GateResult): string {
  const one = (id: string, s: number | null, status: string | null) =>
    `${markdownText(id)} ${s === null ? '' : `${score(s)} `}(${status === null ? 'not found yet' : markdownText(status)})`
  if (isGroup(item)) return item.runIds.map((id, i) => one(id, item.scores[i] ?? null, item.statuses[i] ?? null)).join(', ')
  const runs = new Map(result.runs.map((run) => [run.id, run]))
  return item.ids.map((id) => one(id, runs.get(id)?.score ?? null, runs.get(id)?.status ?? null)).join(', ')
}

function shownFigure(show: SummaryShow, value: string | number): string {
  if (typeof value === 'string') return show === 'trend' ? `\`${value}\`` : markdownText(value)
  switch (show) {
    case 'score':
      return score(value)
    case 'signed':
      return signed(value)
    case 'percent':
      return percent(value)
    case 'launch':
      return `launch ${value}`
    default:
      return String(value)
  }
}

/** An item's figures, as the registry labels them: "Baseline 0.84 · SD 0.02 · Runs 30 …". */
function figuresLine(item: Item, kind: BaselineChoice['kind'] | undefined, grouped: boolean): string {
  const parts: string[] = []
  for (const figure of FIGURE_LIST as ReadonlyArray<Figure>) {
    if (figure.summary === undefined || !gives(figure, kind, grouped)) continue
    const value = figure.value(item)
    if (value === null || value === '') continue
    parts.push(`${figure.summary.label} ${shownFigure(figure.summary.show, value)}`)
  }
  return parts.join(' · ')
}

const KIND: Record<string, BaselineChoice['kind']> = {history: 'history', previous: 'previous', file: 'file'}

/** The method in two sentences: what each group must do, and how a regression and a failure are told from noise. */
function method(ctx: Context, options: SummaryOptions): string {
  const {rules} = ctx.result
  const each = ctx.result.groups ? 'group (the mean of its runs)' : 'run'
  const parts = ['succeed']
  if (rules.minScore !== undefined) parts.push(`score at least ${rules.minScore} (--min-score)`)
  const noise = rules.baseline === 'history' || rules.baseline === 'file'
  if (rules.baseline === 'history')
    parts.push(`stay within the noise of its newest ${rules.baselineRuns ?? 20} earlier runs (--baseline history)`)
  else if (rules.baseline === 'file' && rules.baselineFile !== undefined)
    parts.push(
      `stay within the noise of its runs in ${markdownText(rules.baselineFile.path)}, saved ${markdownText(rules.baselineFile.savedAt)} (--baseline-file)`,
    )
  else if (rules.baseline === 'previous')
    parts.push(`score at most ${rules.maxDrop ?? 0} below the newest earlier run (--baseline previous)`)
  else if (rules.baseline !== undefined)
    parts.push(`score at most ${rules.maxDrop ?? 0} below run ${markdownText(rules.baseline)} (--baseline)`)
  const first = `Each ${each} must ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`}${rules.requireBaseline ? ', and have a baseline (--require-baseline)' : ''}.`
  const link = options.docsUrl === undefined ? 'amctl’s docs/ci.md' : `[docs/ci.md](${options.docsUrl.replace(/\/?$/, '/')}ci.md)`
  if (!noise) return `${first} A run that failed or was cancelled fails; more in ${link}.`
  const confidence = percent(rules.confidence ?? 0.95)
  const drop = rules.maxDrop !== undefined && rules.maxDrop > 0 ? ` and --max-drop ${rules.maxDrop}` : ''
  const file = rules.baseline === 'file' ? ', a tolerance bound for the file' : ''
  const auto = rules.auto !== undefined ? ', over the looks of --repeat auto' : ''
  return `${first} A regression is a score below the baseline's mean by more than its noise margin${drop} at ${confidence} for the whole step${file}${auto}, and failed runs fail only beyond the baseline's own failure rate (cancelled ones never); more in ${link}.`
}

function details(ctx: Context, options: SummaryOptions, lines: string[]): void {
  const {result} = ctx
  const kind = result.rules.baseline === undefined ? undefined : (KIND[result.rules.baseline] ?? 'run')
  const grouped = result.groups !== undefined
  lines.push('', '<details><summary>Runs, figures and how they were judged</summary>', '')
  for (const item of entries(ctx)) {
    lines.push(`- **${nameOf(item, ctx)}**: ${runsLine(item, result)}`)
    const figures = figuresLine(item, kind, grouped)
    if (figures !== '') lines.push(`  ${figures}`)
    const why = item.failure?.reason ?? item.note ?? item.skipped
    if (why !== undefined) lines.push(`  ${capital(markdownText(why))}.`)
  }
  const {auto} = result.rules
  if (auto !== undefined) {
    const last =
      auto.lastFor.length === 0
        ? ''
        : `; the last for ${auto.lastFor.map((id) => markdownText(id)).join(', ')}, undecided after ${auto.launches - 1}`
    lines.push(
      '',
      `${capital(plural(auto.launches, 'launch'))} (--repeat auto, at most ${auto.maxRepeat}): one at a time, until each group regressed or was cleared of a drop of ${result.rules.maxDropSd === undefined ? `${result.rules.maxDrop} (--max-drop)` : `${result.rules.maxDropSd} times its baseline's sd (--max-drop ${result.rules.maxDropSd}sd)`}${last}.`,
    )
  }
  lines.push('', method(ctx, options), '', '</details>')
}

/** The Markdown summary of `report`: the job summary, and the body of the pull-request comment. */
export function markdownSummary(report: GateResult, options: SummaryOptions = {}): string {
  const items: Item[] = report.groups ?? report.runs
  const ctx: Context = {result: report, items, severalSets: new Set(items.map((item) => item.evalSetId)).size > 1}
  const lines = [headline(ctx), '']
  if (items.length > 0) table(ctx, lines)
  const todo = entries(ctx)
    .filter((item) => item.outcome === 'failed')
    .sort(byWorst)
    .map((item) => adviceFor(item, ctx))
    .filter((line): line is string => line !== undefined)
  if (todo.length > 0) lines.push('', '**What to do**', '', ...todo.map((line) => `- ${line}`))
  const warned = warnings(ctx)
  if (warned.length > 0) lines.push('', ...warned.flatMap((line, i) => (i === 0 ? [line] : ['', line])))
  if (report.unfinishedRunIds.length > 0)
    lines.push('', `⏳ Still going on the server (the API cannot cancel runs): ${runIdsText(report.unfinishedRunIds, 10)}.`)
  if (items.length > 0) details(ctx, options, lines)
  return `${lines.join('\n')}\n`
}
