import {Buffer} from 'node:buffer'
import {createHash} from 'node:crypto'
import {counted} from '../../output/format.js'
import {flagDuration} from '../../output/time.js'
import {FIGURE_LIST, gives, type SummaryShow} from '../figures.js'
import {findChange} from '../history-verdict.js'
import {type GateResult, type GroupResult, judgedItems, type RunResult, verdictText} from '../result.js'
import {isSample, type RunVerdict, type SampleBaseline} from '../rules.js'
import type {NormalQuantile} from '../stats.js'
import {REPORT_SCRIPT, REPORT_STYLE} from './html-assets.js'

/**
 * `--html PATH` (a wait) and `amctl evals report --html PATH` (a window of the history): one
 * self-contained HTML file (docs/report.md). A report model (ReportModel) is made by one of two
 * producers — a wait's GateResult (waitReport, below) or the history's tally
 * (../history-report.ts) — and drawn here once:
 *
 * - a chart per eval set × agent × model, drawn as SVG when the report is written (no chart
 *   library runs in the page: CONTRIBUTING.md "Why the report draws its own charts"): the
 *   baseline's runs as points over time, its band (mean, the bar a score must stay above, mean ±
 *   sd), this step's runs marked differently, failed and cancelled runs as marks on the time
 *   axis, the level change of `evals stats` (./history-verdict.ts findChange) with the means before
 *   and after; the verdict and its figures (the summary labels of ../figures.ts FIGURES) beside it;
 * - a table of every run (sortable, filtered by group and "failed or cancelled only", paged on
 *   screen and whole in print), made by a small inline script from the runs embedded as JSON.
 *
 * No request leaves the page: the style and the script are inline, allowed by their hashes in a
 * Content-Security-Policy of `default-src 'none'`; fonts are the system's. Every server string
 * (IDs, agents, models, statuses) is data: escaped for HTML where it is text, and in the JSON
 * block with `<` written `\u003c`, so that `</script>` in an agent's name cannot end it.
 */

/** Who a run of a chart is: a run of the baseline, a run of this step, or (evals report) a run of the history. */
export const ROLES = ['baseline', 'step', 'history'] as const
export type RunRole = (typeof ROLES)[number]
const ROLE_INDEX: Record<RunRole, number> = {baseline: 0, step: 1, history: 2}

/** How a verdict reads: passed, did not pass, to look at, or nothing to say. */
export type Tone = 'pass' | 'fail' | 'warn' | 'none'

/** The statuses of a report's runs, each said once: a run holds its index. */
export class Statuses {
  readonly names: string[] = []
  private readonly index = new Map<string, number>()

  of(status: string): number {
    let i = this.index.get(status)
    if (i === undefined) {
      i = this.names.length
      this.names.push(status)
      this.index.set(status, i)
    }
    return i
  }
}

/**
 * The runs of one chart as columns, not Run objects: `evals report` keeps every run of the
 * window for the table (100,000 of them under 100 MB at the peak: bench/report.mjs). The IDs too are
 * bytes (UTF-8, one buffer and the end of each), not 100,000 strings on the heap: strings that
 * outlive the read would be copied by every collection of it and grow the young generation.
 */
export class RunColumns {
  /** the IDs' UTF-8 bytes, one after the other */
  private idBytes = Buffer.allocUnsafe(1024)
  /** where each ID's bytes end */
  private idEnds = new Uint32Array(16)
  private count = 0
  /** createdAt, epoch ms (NaN: none) */
  times = new Float64Array(16)
  /** score (NaN: none) */
  scores = new Float64Array(16)
  /** index into the report's Statuses */
  statuses = new Uint16Array(16)
  /** index into ROLES */
  roles = new Uint8Array(16)

  get length(): number {
    return this.count
  }

  /** The ID of run `i`. */
  id(i: number): string {
    return this.idBytes.toString('utf8', i === 0 ? 0 : this.idEnds[i - 1], this.idEnds[i])
  }

  add(id: string, time: number, score: number | null, status: number, role: RunRole): void {
    const i = this.count
    if (i === this.times.length) this.grow()
    const start = i === 0 ? 0 : this.idEnds[i - 1]
    // at most 3 bytes a UTF-16 unit
    if (start + id.length * 3 > this.idBytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(this.idBytes.length * 2, start + id.length * 3))
      this.idBytes.copy(bytes, 0, 0, start)
      this.idBytes = bytes
    }
    // an ASCII ID (as the server's are) byte by byte: 100,000 calls into Buffer.write cost more
    let end = start
    for (let c = 0; c < id.length; c++) {
      const code = id.charCodeAt(c)
      if (code >= 0x80) {
        end = start + this.idBytes.write(id, start, 'utf8')
        break
      }
      this.idBytes[end++] = code
    }
    this.idEnds[i] = end
    this.times[i] = time
    this.scores[i] = score ?? Number.NaN
    this.statuses[i] = status
    this.roles[i] = ROLE_INDEX[role]
    this.count++
  }

  /** Puts the runs in the opposite order (in place: a copy of 100,000 would double them). */
  reverse(): this {
    const n = this.count
    const bytes = Buffer.allocUnsafe(n === 0 ? 0 : this.idEnds[n - 1])
    const ends = new Uint32Array(this.idEnds.length)
    let at = 0
    const from = this.idBytes
    for (let i = n - 1, j = 0; i >= 0; i--, j++) {
      // byte by byte: IDs are short, and 100,000 calls of Buffer.copy cost more
      for (let b = i === 0 ? 0 : this.idEnds[i - 1], end = this.idEnds[i]; b < end; b++) bytes[at++] = from[b]
      ends[j] = at
    }
    this.idBytes = bytes
    this.idEnds = ends
    for (const column of [this.times, this.scores, this.statuses, this.roles]) column.subarray(0, n).reverse()
    return this
  }

  private grow(): void {
    const size = this.times.length * 2
    const grown = <T extends Float64Array | Uint16Array | Uint32Array | Uint8Array>(from: T, to: T): T => {
      to.set(from)
      return to
    }
    this.idEnds = grown(this.idEnds, new Uint32Array(size))
    this.times = grown(this.times, new Float64Array(size))
    this.scores = grown(this.scores, new Float64Array(size))
    this.statuses = grown(this.statuses, new Uint16Array(size))
    this.roles = grown(this.roles, new Uint8Array(size))
  }
}

/** A verdict beside a chart: the wait's (one per run judged alone, or the group's) or `evals stats`'. */
export interface ReportVerdict {
  /** what it is of: a run's ID, or the group */
  of: string
  verdict: string
  tone: Tone
  /** one sentence: why it failed, or a note */
  note?: string
  /** the figures, each with its label (../figures.ts FIGURES' summary labels for a wait) */
  figures: Array<[string, string]>
}

/** The band a chart draws: the baseline's mean, its sd, and the bar a score must stay above. */
export interface Band {
  mean: number
  sd: number
  /** mean − the margin (or --max-drop, when larger): a score below it regressed; absent: no bar */
  bar?: number
  /** the margin that bar is made of */
  margin?: number
  /** where the band comes from, in words: "the history's 20 runs", "base.json" */
  source: string
}

/** One chart: an eval set × agent × model. */
export interface ReportGroup {
  /** "<eval set> <agent> / <model>" */
  label: string
  verdicts: ReportVerdict[]
  band?: Band
  /** --baseline previous|RUN_ID: the one run compared with (not placed in time: the result has no createdAt of it) */
  baselineRun?: {runId: string; score: number}
  /** with --repeat: the step's score, the mean its verdict judged */
  stepScore?: number
  /** the level change in the baseline's (or the history's) scores: the first run of the new level */
  change?: {runId: string; at: number; before: number; after: number}
  runs: RunColumns
  /** at most this many points are drawn (the table holds every run); absent: every run */
  maxPoints?: number
}

/** What a report says, whoever made it. */
export interface ReportModel {
  title: string
  /** one line under the title: how the wait ended, or what the window holds */
  lede: string
  tone: Tone
  /** when it was written, epoch ms */
  generatedAt: number
  /** the facts under the lede: organization, rules, window */
  facts: Array<[string, string]>
  /** a run's page, `{id}` standing for its ID (--run-url, AMCTL_RUN_URL); absent: IDs are plain text */
  runUrl?: string
  statuses: Statuses
  groups: ReportGroup[]
}

// ————————————————————————————————————————— a wait —————————————————————————————————————————

const TONE: Record<RunVerdict, Tone> = {
  passed: 'pass',
  improved: 'pass',
  'no-baseline': 'warn',
  regressed: 'fail',
  failed: 'fail',
  'below-min-score': 'fail',
  unfinished: 'warn',
  inconclusive: 'warn',
}

const END_TONE: Record<GateResult['end'], Tone> = {
  passed: 'pass',
  'not-passed': 'fail',
  timeout: 'warn',
  interrupted: 'warn',
  error: 'fail',
}

/** A figure as a report shows it, as the registry says (../figures.ts SummaryShow): numbers to 4 decimals, shares in %, the rest as text. */
function figureText(value: string | number, show: SummaryShow): string {
  if (typeof value === 'string') return value
  const n = String(Number(value.toFixed(4)))
  switch (show) {
    case 'percent':
      return `${Number((value * 100).toFixed(2))} %`
    case 'signed':
      return value > 0 ? `+${n}` : n
    case 'launch':
      return `launch ${n}`
    default:
      return n
  }
}

const targetKey = (item: {evalSetId: string | null; agent: string | null; model: string | null}): string =>
  JSON.stringify([item.evalSetId, item.agent, item.model])
const targetLabel = (item: {evalSetId: string | null; agent: string | null; model: string | null}): string =>
  `${item.evalSetId ?? '(unknown eval set)'} ${item.agent ?? '(no agent)'} / ${item.model ?? '(no model)'}`

/** The figures of a judged item: every entry of FIGURES with a summary label that this wait gives (the chart is the trend). */
function figuresOf(item: RunResult | GroupResult, kind: string | undefined, grouped: boolean): Array<[string, string]> {
  const figures: Array<[string, string]> = [['Verdict', item.verdict]]
  for (const figure of FIGURE_LIST) {
    if (figure.summary === undefined || figure.key === 'trend') continue
    if (!gives(figure, kind as Parameters<typeof gives>[1], grouped)) continue
    const value = figure.value(item)
    if (value !== null && value !== '') figures.push([figure.summary.label, figureText(value, figure.summary.show)])
  }
  return figures
}

/** The bar of a judged item against a baseline of many runs: mean − max(margin, --max-drop). */
function barOf(item: RunResult | GroupResult, baseline: SampleBaseline, maxDrop: number | undefined): Band['bar'] {
  if (typeof item.margin !== 'number') return undefined
  const drop = item.decision?.rule === 'noise' ? (item.decision.maxDrop ?? 0) : (maxDrop ?? 0)
  return baseline.mean - Math.max(item.margin, drop)
}

export interface WaitReportOptions {
  /** when the report is written, epoch ms */
  now: number
  runUrl?: string
  /** the level change's test (../stats.ts loadVerdictDistributions) */
  normalQuantile: NormalQuantile
}

/**
 * The report of a wait: a chart per eval set × agent × model of the judged items (the groups
 * with --repeat, else the runs), each with its baseline's runs, this step's runs and the
 * baseline's failed and cancelled runs; every baseline run and every step run is one point.
 */
export function waitReport(result: GateResult, options: WaitReportOptions): ReportModel {
  const statuses = new Statuses()
  const grouped = result.groups !== undefined
  const kind =
    result.rules.baseline === undefined
      ? undefined
      : ['history', 'file', 'previous'].includes(result.rules.baseline)
        ? result.rules.baseline
        : 'run'
  const runsById = new Map(result.runs.map((r) => [r.id, r]))
  const charts = new Map<string, {group: ReportGroup; baselineIds: Set<string>; sample?: SampleBaseline}>()
  const confidence = result.rules.confidence ?? 0.95
  for (const item of judgedItems(result)) {
    const key = targetKey(item)
    let chart = charts.get(key)
    if (chart === undefined) {
      chart = {group: {label: targetLabel(item), verdicts: [], runs: new RunColumns()}, baselineIds: new Set()}
      charts.set(key, chart)
    }
    const {group} = chart
    const failure = item.failure?.reason ?? item.note ?? item.skipped
    group.verdicts.push({
      of: 'runIds' in item ? 'the group' : item.id,
      verdict: item.verdict,
      tone: TONE[item.verdict] ?? 'none',
      ...(failure === undefined ? {} : {note: failure}),
      figures: figuresOf(item, kind, grouped),
    })
    const baseline = item.baseline
    if (isSample(baseline)) {
      for (let i = 0; i < baseline.runIds.length; i++) {
        const id = baseline.runIds[i]
        if (chart.baselineIds.has(id)) continue
        chart.baselineIds.add(id)
        group.runs.add(id, Date.parse(baseline.times[i]), baseline.scores[i], statuses.of('succeeded'), 'baseline')
      }
      for (const run of baseline.outcomes?.runs ?? []) {
        if (chart.baselineIds.has(run.id)) continue
        chart.baselineIds.add(run.id)
        group.runs.add(run.id, Date.parse(run.createdAt), null, statuses.of(run.status), 'baseline')
      }
      if (chart.sample === undefined) {
        chart.sample = baseline
        const bar = barOf(item, baseline, result.rules.maxDrop)
        const source = baseline.kind === 'file' ? `${baseline.path} (${baseline.runs} runs)` : `the history's ${baseline.runs} runs`
        group.band = {
          mean: baseline.mean,
          sd: baseline.sd,
          ...(bar === undefined ? {} : {bar, margin: item.margin as number}),
          source,
        }
        const change = findChange(baseline.scores, confidence, options.normalQuantile)
        if (change !== undefined)
          group.change = {
            runId: baseline.runIds[change.at],
            at: Date.parse(baseline.times[change.at]),
            before: change.before,
            after: change.after,
          }
      }
    } else if (baseline != null && group.baselineRun === undefined) {
      group.baselineRun = {runId: baseline.runId, score: baseline.score}
    }
    const stepRuns = 'runIds' in item ? item.runIds.map((id) => runsById.get(id) as RunResult) : [item]
    for (const run of stepRuns) {
      group.runs.add(
        run.id,
        run.createdAt === null ? Number.NaN : Date.parse(run.createdAt),
        run.score,
        statuses.of(run.status ?? 'not found'),
        'step',
      )
    }
    if ('runIds' in item && item.score !== null && item.runIds.length > 1) group.stepScore = item.score
  }
  const {rules} = result
  const facts: Array<[string, string]> = [['Organization', result.org]]
  if (rules.baseline !== undefined) facts.push(['Baseline', rules.baselineFile?.path ?? rules.baseline])
  if (rules.confidence !== undefined) facts.push(['Confidence', String(rules.confidence)])
  if (rules.minScore !== undefined) facts.push(['--min-score', String(rules.minScore)])
  if (rules.maxDrop !== undefined) facts.push(['--max-drop', String(rules.maxDrop)])
  if (rules.baselineWindowS) facts.push(['Baseline window', flagDuration(rules.baselineWindowS)])
  return {
    title: `amctl: ${verdictText(result)}`,
    lede: `The ${grouped ? 'groups' : 'runs'} of this step against their baselines, on ${result.host}.`,
    tone: END_TONE[result.end],
    generatedAt: options.now,
    facts,
    ...(options.runUrl === undefined ? {} : {runUrl: options.runUrl}),
    statuses,
    groups: [...charts.values()].map((c) => c.group),
  }
}

// ———————————————————————————————————————— drawing ————————————————————————————————————————

/** Text and attribute values made safe for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** JSON for a `<script type="application/json">` block: nothing in it can end the block or start a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** The page's Content-Security-Policy: nothing from anywhere, but its own style and script (by their hashes). */
export const REPORT_CSP = `default-src 'none'; style-src ${sha256(REPORT_STYLE)}; script-src ${sha256(REPORT_SCRIPT)}; base-uri 'none'; form-action 'none'`

/** The chart's size in SVG units, and its plot area. */
const W = 720
const H = 270
const PLOT = {left: 52, right: W - 16, top: 14, bottom: H - 58}
/** where failed and cancelled runs are marked: on the time axis */
const AXIS_Y = PLOT.bottom

const fmt = (n: number): string => String(Math.round(n * 10) / 10)
const num = (n: number, digits = 2): string => n.toFixed(digits)

/** Date ticks: steps a reader counts in. */
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY]
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * The ticks of a time axis from `from` to `to` (epoch ms, UTC): at most about six, on round
 * steps (minutes, hours, days, weeks; months beyond two weeks), each with its label.
 */
export function timeTicks(from: number, to: number): Array<{at: number; label: string}> {
  const span = Math.max(to - from, MINUTE)
  const step = STEPS.find((s) => span / s <= 6)
  const ticks: Array<{at: number; label: string}> = []
  const dayLabel = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`
  if (step === undefined) {
    // months (every 1, 2, 3, 6 or 12)
    const months = [1, 2, 3, 6, 12].find((m) => span / (m * 30 * DAY) <= 6) ?? Math.ceil(span / (6 * 365 * DAY)) * 12
    const d = new Date(from)
    let y = d.getUTCFullYear()
    let m = Math.ceil(d.getUTCMonth() / months) * months
    for (let at = Date.UTC(y, m, 1); at <= to; at = Date.UTC(y, m, 1)) {
      if (at >= from) ticks.push({at, label: m % 12 === 0 ? String(y) : `${MONTHS[m % 12]} ${y}`})
      m += months
      if (m >= 12) {
        y += Math.floor(m / 12)
        m %= 12
      }
    }
    return ticks
  }
  for (let at = Math.ceil(from / step) * step; at <= to; at += step) {
    const d = new Date(at)
    const time = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`
    ticks.push({at, label: step < DAY ? (at % DAY === 0 ? dayLabel(d) : time) : dayLabel(d)})
  }
  return ticks
}

/** The score axis: from the lowest to the highest value drawn, widened to steps of 0.05 (at least 0.2 wide), within 0–1. */
export function scoreDomain(values: readonly number[]): {low: number; high: number; step: number} {
  let low = 1
  let high = 0
  for (const v of values) {
    if (v < low) low = v
    if (v > high) high = v
  }
  if (low > high) return {low: 0, high: 1, step: 0.25}
  const snap = (v: number, up: boolean) => Math.round((up ? Math.ceil(v / 0.05 - 1e-9) : Math.floor(v / 0.05 + 1e-9)) * 5) / 100
  low = Math.max(0, snap(low - 0.02, false))
  high = Math.min(1, snap(high + 0.02, true))
  if (high - low < 0.2 - 1e-9) {
    low = Math.max(0, snap((low + high) / 2 - 0.1, false))
    high = Math.min(1, Math.round((low + 0.2) * 100) / 100)
    low = Math.max(0, Math.round((high - 0.2) * 100) / 100)
  }
  const span = high - low
  const step = span > 0.6 ? 0.25 : span > 0.3 ? 0.1 : 0.05
  return {low, high, step}
}

/** The indexes of the runs drawn: every run, or (more than `max`) every step run and every n-th other run. */
function drawn(runs: RunColumns, max: number | undefined): number[] {
  const all = max === undefined || runs.length <= max
  const stride = all ? 1 : Math.ceil(runs.length / max)
  const step = ROLES.indexOf('step')
  const out: number[] = []
  for (let i = 0; i < runs.length; i++) if (all || runs.roles[i] === step || i % stride === 0) out.push(i)
  return out
}

/** Whether a run is a mark on the time axis and not a point: a run of the baseline (or the history) that has no score. */
const isMark = (runs: RunColumns, i: number): boolean => ROLES[runs.roles[i]] !== 'step' && Number.isNaN(runs.scores[i])

/** How many of a chart's runs are points (every run but the baseline's unscored ones, which are marks), and how many it draws. */
export function chartCounts(group: ReportGroup): {points: number; drawn: number} {
  let points = 0
  for (let i = 0; i < group.runs.length; i++) if (!isMark(group.runs, i)) points++
  let drawnPoints = 0
  for (const i of drawn(group.runs, group.maxPoints)) if (!isMark(group.runs, i)) drawnPoints++
  return {points, drawn: drawnPoints}
}

function chartSvg(group: ReportGroup, index: number, statuses: Statuses): {svg: string; points: number; shown: number} {
  const {runs, band} = group
  // the extent of the dates and scores (a loop: a chart may hold 100,000 runs)
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  let low = Number.POSITIVE_INFINITY
  let high = Number.NEGATIVE_INFINITY
  for (let i = 0; i < runs.length; i++) {
    const t = runs.times[i]
    const score = runs.scores[i]
    if (t < first) first = t
    if (t > last) last = t
    if (score < low) low = score
    if (score > high) high = score
  }
  const values: number[] = low <= high ? [low, high] : []
  if (band) values.push(band.mean - band.sd, band.mean + band.sd, ...(band.bar === undefined ? [] : [band.bar]))
  if (group.baselineRun) values.push(group.baselineRun.score)
  if (group.stepScore !== undefined) values.push(group.stepScore)
  if (group.change) values.push(group.change.before, group.change.after)
  let t0 = first <= last ? first : 0
  let t1 = first <= last ? last : 1
  const pad = Math.max((t1 - t0) * 0.03, MINUTE)
  t0 -= pad
  t1 += pad
  const y = scoreDomain(values)
  const x = (t: number) => PLOT.left + ((t - t0) / (t1 - t0)) * (PLOT.right - PLOT.left)
  const yOf = (s: number) => PLOT.bottom - ((s - y.low) / (y.high - y.low)) * (PLOT.bottom - PLOT.top)
  const parts: string[] = []
  const titleId = `chart-${index}-title`
  const descId = `chart-${index}-desc`
  const indexes = drawn(runs, group.maxPoints)
  let points = 0
  let marks = 0
  const pointParts: string[] = []
  for (const i of indexes) {
    const role = ROLES[runs.roles[i]]
    const status = statuses.names[runs.statuses[i]]
    const failed = status === 'failed' ? ' f' : status === 'cancelled' ? ' c' : ''
    const t = runs.times[i]
    // a run of this step never found has no date: at the right end, on the axis
    const cx = Number.isNaN(t) ? PLOT.right : x(t)
    const score = runs.scores[i]
    if (isMark(runs, i)) {
      marks++
      // a failed run of the baseline: a cross on the axis; a cancelled one: a bar across it
      pointParts.push(
        failed === ' c'
          ? `<path class="m c" d="M${fmt(cx)} ${AXIS_Y - 6}v12"/>`
          : `<path class="m f" d="M${fmt(cx - 4)} ${AXIS_Y - 4}l8 8m0-8l-8 8"/>`,
      )
      continue
    }
    points++
    if (role === 'step') {
      if (Number.isNaN(score)) {
        // failed, cancelled or not finished: on the axis
        pointParts.push(
          `<path class="p s u${failed}" data-run="${escapeHtml(runs.id(i))}" d="M${fmt(cx - 6)} ${AXIS_Y - 6}l12 12m0-12l-12 12"/>`,
        )
      } else {
        const cy = yOf(score)
        pointParts.push(`<path class="p s${failed}" data-run="${escapeHtml(runs.id(i))}" d="M${fmt(cx)} ${fmt(cy - 6)}l6 6-6 6-6-6z"/>`)
      }
    } else {
      pointParts.push(`<circle class="p ${role === 'baseline' ? 'b' : 'h'}" cx="${fmt(cx)}" cy="${fmt(yOf(score))}" r="3"/>`)
    }
  }
  const shown = points
  const total = chartCounts(group).points
  const label = `Scores of ${group.label} over time`
  parts.push(
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${titleId} ${descId}" data-points="${shown}" data-runs="${total}" data-marks="${marks}">`,
    `<title id="${titleId}">${escapeHtml(label)}</title>`,
    `<desc id="${descId}">${escapeHtml(chartDescription(group, total, shown))}</desc>`,
  )
  // the band: mean ± sd shaded, the mean, the bar
  if (band) {
    const top = yOf(Math.min(y.high, band.mean + band.sd))
    const bottom = yOf(Math.max(y.low, band.mean - band.sd))
    parts.push(
      `<rect class="sd" x="${PLOT.left}" y="${fmt(top)}" width="${PLOT.right - PLOT.left}" height="${fmt(Math.max(0, bottom - top))}"/>`,
    )
  }
  // the grid and the axes
  for (let v = Math.ceil(y.low / y.step - 1e-9) * y.step; v <= y.high + 1e-9; v += y.step) {
    const at = fmt(yOf(v))
    parts.push(`<line class="grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${at}" y2="${at}"/>`)
    parts.push(`<text class="tick" x="${PLOT.left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle">${num(v)}</text>`)
  }
  for (const tick of timeTicks(t0, t1)) {
    const at = fmt(x(tick.at))
    parts.push(`<line class="grid" x1="${at}" x2="${at}" y1="${PLOT.top}" y2="${PLOT.bottom}"/>`)
    parts.push(`<text class="tick" x="${at}" y="${PLOT.bottom + 18}" text-anchor="middle">${escapeHtml(tick.label)}</text>`)
  }
  parts.push(`<line class="axis" x1="${PLOT.left}" x2="${PLOT.right}" y1="${AXIS_Y}" y2="${AXIS_Y}"/>`)
  parts.push(`<line class="axis" x1="${PLOT.left}" x2="${PLOT.left}" y1="${PLOT.top}" y2="${PLOT.bottom}"/>`)
  parts.push(
    `<text class="label" x="${(PLOT.left + PLOT.right) / 2}" y="${H - 12}" text-anchor="middle">created (UTC)</text>`,
    `<text class="label" transform="translate(14 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">score (0–1)</text>`,
  )
  if (band) {
    parts.push(`<line class="mean" x1="${PLOT.left}" x2="${PLOT.right}" y1="${fmt(yOf(band.mean))}" y2="${fmt(yOf(band.mean))}"/>`)
    if (band.bar !== undefined && band.bar >= y.low)
      parts.push(`<line class="bar" x1="${PLOT.left}" x2="${PLOT.right}" y1="${fmt(yOf(band.bar))}" y2="${fmt(yOf(band.bar))}"/>`)
  }
  if (group.baselineRun) {
    const at = fmt(yOf(group.baselineRun.score))
    parts.push(`<line class="mean" x1="${PLOT.left}" x2="${PLOT.right}" y1="${at}" y2="${at}"/>`)
  }
  if (group.change) {
    const cx = x(group.change.at)
    parts.push(`<line class="change" x1="${fmt(cx)}" x2="${fmt(cx)}" y1="${PLOT.top}" y2="${PLOT.bottom}"/>`)
    parts.push(
      `<line class="level" x1="${PLOT.left}" x2="${fmt(cx)}" y1="${fmt(yOf(group.change.before))}" y2="${fmt(yOf(group.change.before))}"/>`,
    )
    parts.push(
      `<line class="level" x1="${fmt(cx)}" x2="${PLOT.right}" y1="${fmt(yOf(group.change.after))}" y2="${fmt(yOf(group.change.after))}"/>`,
    )
    const right = cx > (PLOT.left + PLOT.right) / 2
    parts.push(
      `<text class="note" x="${fmt(right ? cx - 6 : cx + 6)}" y="${PLOT.top + 12}" text-anchor="${right ? 'end' : 'start'}">level change: ${num(group.change.before)} → ${num(group.change.after)}</text>`,
    )
  }
  if (group.stepScore !== undefined) {
    // the step's mean, across the step's own runs
    let from = Number.POSITIVE_INFINITY
    let to = Number.NEGATIVE_INFINITY
    for (let i = 0; i < runs.length; i++) {
      if (ROLES[runs.roles[i]] !== 'step' || Number.isNaN(runs.times[i])) continue
      from = Math.min(from, runs.times[i])
      to = Math.max(to, runs.times[i])
    }
    if (from <= to) {
      const at = fmt(yOf(group.stepScore))
      parts.push(`<line class="stepmean" x1="${fmt(x(from) - 10)}" x2="${fmt(x(to) + 10)}" y1="${at}" y2="${at}"/>`)
    }
  }
  parts.push(`<g class="points">${pointParts.join('')}</g></svg>`)
  return {svg: parts.join(''), points: total, shown}
}

/** What a chart shows, in a sentence (its description for a screen reader, and the caption's first line). */
function chartDescription(group: ReportGroup, total: number, shown: number): string {
  const {runs, band} = group
  let step = 0
  let baseline = 0
  let history = 0
  for (let i = 0; i < runs.length; i++) {
    if (isMark(runs, i)) continue
    const role = ROLES[runs.roles[i]]
    if (role === 'step') step++
    else if (role === 'baseline') baseline++
    else history++
  }
  const parts: string[] = []
  if (history > 0) parts.push(`${history} run${history === 1 ? '' : 's'} of the history`)
  if (baseline > 0) parts.push(`${baseline} baseline run${baseline === 1 ? '' : 's'}`)
  if (step > 0) parts.push(`${step} run${step === 1 ? '' : 's'} of this step`)
  let text = `${parts.join(' and ') || 'no runs'}`
  if (band) text += `; baseline mean ${num(band.mean)} ± ${num(band.sd)}${band.bar === undefined ? '' : `, bar ${num(band.bar)}`}`
  if (group.change) text += `; level change from ${num(group.change.before)} to ${num(group.change.after)}`
  if (shown < total) text += `; ${counted(shown)} of ${counted(total)} runs drawn`
  return `${text}.`
}

/** The legend, once for every chart: what each mark is. */
function legend(model: ReportModel): string {
  const roles = new Set<RunRole>()
  let band = false
  let bar = false
  let change = false
  let marks = false
  let stepMean = false
  for (const group of model.groups) {
    for (let i = 0; i < group.runs.length; i++) {
      roles.add(ROLES[group.runs.roles[i]])
      if (isMark(group.runs, i)) marks = true
    }
    if (group.band || group.baselineRun) band = true
    if (group.band?.bar !== undefined) bar = true
    if (group.change) change = true
    if (group.stepScore !== undefined) stepMean = true
  }
  const item = (swatch: string, text: string) =>
    `<li><svg class="swatch" viewBox="0 0 24 16" aria-hidden="true" focusable="false">${swatch}</svg>${text}</li>`
  const items: string[] = []
  if (roles.has('baseline')) items.push(item('<circle class="p b" cx="12" cy="8" r="3"/>', 'a run of the baseline'))
  if (roles.has('history')) items.push(item('<circle class="p h" cx="12" cy="8" r="3"/>', 'a run of the history'))
  if (roles.has('step')) {
    items.push(item('<path class="p s" d="M12 2l6 6-6 6-6-6z"/>', 'a run of this step'))
    items.push(
      item(
        '<path class="p s u" d="M7 3l10 10m0-10l-10 10"/>',
        'a run of this step without a score (failed, cancelled or not finished), on the time axis',
      ),
    )
  }
  if (marks) {
    const of = roles.has('history') ? 'history' : 'baseline'
    items.push(item('<path class="m f" d="M8 4l8 8m0-8l-8 8"/>', `a failed run of the ${of}, on the time axis`))
    items.push(item('<path class="m c" d="M12 2v12"/>', `a cancelled run of the ${of}, on the time axis`))
  }
  if (band) {
    items.push(item('<line class="mean" x1="0" x2="24" y1="8" y2="8"/>', 'the baseline’s mean (or its one run’s score)'))
    items.push(item('<rect class="sd" x="0" y="2" width="24" height="12"/>', 'the baseline’s mean ± one standard deviation'))
  }
  if (bar)
    items.push(
      item(
        '<line class="bar" x1="0" x2="24" y1="8" y2="8"/>',
        'the bar: the mean less the margin (or --max-drop, when larger); a score below it regressed',
      ),
    )
  if (stepMean)
    items.push(
      item('<line class="stepmean" x1="0" x2="24" y1="8" y2="8"/>', 'this step’s score: the mean of its runs, which the verdict judged'),
    )
  if (change)
    items.push(
      item(
        '<line class="change" x1="12" x2="12" y1="0" y2="16"/>',
        'a change of level (the test of evals stats): its first run, the means before and after',
      ),
    )
  return `<ul class="legend">${items.join('')}</ul>`
}

function verdictHtml(v: ReportVerdict): string {
  const figures = v.figures
    .filter(([label]) => label !== 'Verdict')
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('')
  return `<div class="verdict"><p><span class="tone ${v.tone}">${escapeHtml(v.verdict)}</span> <span class="of">${escapeHtml(v.of)}</span></p>${
    v.note === undefined ? '' : `<p class="why">${escapeHtml(v.note)}</p>`
  }${figures === '' ? '' : `<dl>${figures}</dl>`}</div>`
}

/**
 * What the page's script reads: the runs as columns, the groups' labels, the statuses and the
 * link template; in pieces of at most BLOCK runs a column (see reportChunks).
 */
function* reportData(model: ReportModel): Generator<string> {
  // written out column by column, BLOCK values at a time: 100,000 runs are one pass over typed
  // arrays whose small strings die young, not six arrays of boxed values, one JSON.stringify of
  // them and a string of 4 MB (nor a string grown by `+=`, a tree of 100,000 parts that every
  // scavenge copies); only the IDs (and the head's labels) can hold a `<`
  const head = scriptJson({
    runUrl: model.runUrl ?? null,
    groups: model.groups.map((group) => group.label),
    statuses: model.statuses.names,
    roles: ['baseline', 'this step', 'history'],
  })
  yield `${head.slice(0, -1)},"runs":{`
  const number = (n: number): string => (Number.isNaN(n) ? 'null' : String(n))
  const columns: Array<[string, (runs: RunColumns, i: number, group: number) => string | number]> = [
    ['id', (runs, i) => runs.id(i)],
    ['g', (_, __, group) => group],
    ['t', (runs, i) => number(runs.times[i])],
    ['s', (runs, i) => number(runs.scores[i])],
    ['st', (runs, i) => runs.statuses[i]],
    ['r', (runs, i) => runs.roles[i]],
  ]
  for (const [c, [key, each]] of columns.entries()) {
    yield `${c === 0 ? '' : ','}"${key}":[`
    const block: Array<string | number> = []
    let first = true
    const flush = (): string => {
      const text = key === 'id' ? scriptJson(block).slice(1, -1) : block.join(',')
      const out = first ? text : `,${text}`
      first = false
      block.length = 0
      return out
    }
    for (const [gi, group] of model.groups.entries()) {
      const {runs} = group
      for (let i = 0; i < runs.length; i++) {
        block.push(each(runs, i, gi))
        if (block.length === BLOCK) yield flush()
      }
    }
    if (block.length > 0) yield flush()
    yield ']'
  }
  yield '}}'
}

/** How many runs a piece of the page's JSON holds at most. */
const BLOCK = 4096

/** The HTML page of `model`: self-contained, the same bytes for the same model. */
export function reportHtml(model: ReportModel): string {
  return [...reportChunks(model)].join('')
}

/**
 * The HTML page of `model` in pieces, in order (`evals report` writes them as they come: the page
 * of 100,000 runs is never one string): the same bytes for the same model.
 */
export function* reportChunks(model: ReportModel): Generator<string> {
  const total = model.groups.reduce((n, group) => n + group.runs.length, 0)
  const generated = new Date(model.generatedAt)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
  const section = (group: ReportGroup, i: number): string => {
    const {svg, points, shown} = chartSvg(group, i, model.statuses)
    const thinned =
      shown < points
        ? `<p class="thinned">Thinned: ${counted(shown)} of ${counted(points)} runs drawn (every run of this step, and evenly spaced others); the table lists every run.</p>`
        : ''
    const band = group.band
      ? `<p class="band">Band: ${escapeHtml(group.band.source)}, mean ${num(group.band.mean, 3)} ± ${num(group.band.sd, 3)}${
          group.band.bar === undefined ? '' : `; bar ${num(group.band.bar, 3)} (margin ${num(group.band.margin ?? 0, 3)})`
        }.</p>`
      : group.baselineRun
        ? `<p class="band">Baseline run ${escapeHtml(group.baselineRun.runId)}: ${num(group.baselineRun.score, 3)}.</p>`
        : ''
    const change = group.change
      ? `<p class="band">Level change at ${escapeHtml(group.change.runId)} (${new Date(group.change.at).toISOString().slice(0, 16).replace('T', ' ')} UTC): ${num(group.change.before, 3)} before, ${num(group.change.after, 3)} since.</p>`
      : ''
    return `<section class="group" aria-labelledby="group-${i}"><h2 id="group-${i}">${escapeHtml(group.label)}</h2><div class="pair"><figure>${svg}<figcaption>${band}${change}${thinned}</figcaption></figure><div class="verdicts">${group.verdicts
      .map(verdictHtml)
      .join('')}</div></div></section>`
  }
  const facts = model.facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')
  const options = model.groups.map((group, i) => `<option value="${i}">${escapeHtml(group.label)}</option>`).join('')
  const header = (key: string, text: string) =>
    `<th scope="col" aria-sort="none"><button type="button" data-key="${key}">${text}</button></th>`
  yield [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="amctl">',
    `<title>${escapeHtml(model.title)}</title>`,
    `<style>${REPORT_STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<header><h1><span class="tone ${model.tone}">${escapeHtml(model.title)}</span></h1><p>${escapeHtml(model.lede)}</p><dl class="facts">${facts}<dt>Written</dt><dd>${generated}</dd></dl></header>`,
    model.groups.length === 0 ? '<p>No runs to draw.</p>' : `<h2 class="sr">Legend</h2>${legend(model)}`,
  ].join('\n')
  // a chart at a time
  for (const [i, group] of model.groups.entries()) yield `\n${section(group, i)}`
  yield [
    '',
    `<section class="runs" aria-labelledby="runs-title"><h2 id="runs-title">Runs</h2>`,
    `<div class="controls"><label for="group-filter">Group</label><select id="group-filter"><option value="">every group (${model.groups.length})</option>${options}</select>`,
    '<label class="check"><input type="checkbox" id="failed-only"> failed or cancelled only</label></div>',
    `<table id="runs"><caption id="runs-count" aria-live="polite">${counted(total)} runs</caption><thead><tr>${header('id', 'Run')}${header('group', 'Group')}${header('role', 'Role')}${header('status', 'Status')}${header('score', 'Score')}${header('created', 'Created (UTC)')}</tr></thead><tbody></tbody></table>`,
    '<nav class="pager" aria-label="Pages of runs"><button type="button" id="prev">Previous page</button> <span id="page"></span> <button type="button" id="next">Next page</button></nav>',
    '</section>',
    '</main>',
    '<script type="application/json" id="report-data">',
  ].join('\n')
  yield* reportData(model)
  yield ['</script>', `<script>${REPORT_SCRIPT}</script>`, '</body>', '</html>', ''].join('\n')
}
