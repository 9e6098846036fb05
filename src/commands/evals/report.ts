import {Args, Flags} from '@oclif/core'
import {ApiCommand} from '../../base/api-command.js'
import type {OperationId} from '../../contract/routes.js'
import {PAGE_LIMIT} from '../../contract/vocabulary.js'
import {UsageError} from '../../core/errors.js'
import {vetWrites} from '../../core/file-policy.js'
import {readBaselineFile} from '../../gate/baseline-file.js'
import {parseConfidence, reportRunUrl, requirePath, RUN_URL_ENV} from '../../gate/flags.js'
import {readHistory} from '../../gate/history-stats.js'
import {HistoryReport, MAX_POINTS, type ReportBaselineFile, reportFileChoice} from '../../gate/history-report.js'
import {writeReport} from '../../gate/report.js'
import {chartCounts, reportChunks} from '../../gate/reports/html.js'
import {HISTORY, loadQuantile, loadToleranceFactor, loadVerdictDistributions} from '../../gate/stats.js'
import {parseDuration, requireId} from '../../input/values.js'
import {counted, plural} from '../../output/format.js'

const DEFAULT_WINDOW = '30d'

/** One agent × model of the report. */
export interface EvalsReportGroup {
  /** the agent, or null for runs without one */
  agent: string | null
  /** the model, or null for runs without one */
  model: string | null
  /** runs of the window (every one is in the table) */
  runs: number
  /** points its chart draws: every run with a score or of the step, at most MAX_POINTS (then evenly spaced) */
  drawn: number
  /** the verdict of `evals stats` */
  verdict: 'stable' | 'flaky' | 'shifted' | 'too-few'
  /** with --baseline-file: the band of its chart (null: the file has no baseline of it, or no --baseline-file) */
  band: {mean: number; sd: number; margin: number} | null
}

/** The `--json` document of `amctl evals report`. */
export interface EvalsReportResult {
  /** the file written, as given */
  path: string
  /** its size in bytes */
  bytes: number
  evalSetId: string
  /** the runs drawn: created at or after `since` (null: `--window 0`), read at `until` */
  window: {seconds: number; since: string | null; until: string}
  /** runs of the window, every one in the report's table */
  runs: number
  groups: EvalsReportGroup[]
}

export default class EvalsReport extends ApiCommand {
  static override summary =
    'Write an HTML report of an eval set over a window: each agent and model over time, with its verdict and its shifts'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `Writes PATH (--html), one self-contained HTML file (docs/report.md): for each agent × model of the eval set, a chart of its scores over the runs created within --window (default ${DEFAULT_WINDOW}; 0: every run), failed and cancelled runs marked on the time axis, and the verdict of \`evals stats\` beside it (stable, shifted, flaky, too-few, at --confidence), a shift marked where the scores changed level, with the means before and after; then a table of every run, sortable and filtered by group or failed runs. A chart draws at most ${counted(MAX_POINTS)} points, evenly spaced, and says so; the table holds every run.

The runs are read as \`evals stats\` reads them: the organization's run list from the newest, ${PAGE_LIMIT.max} to a page, up to the first page that reaches runs older than the window; each run is kept as an ID, a date, a score and a status, and the page is written as it is made: 100,000 runs peak under 100 MB (docs/performance.md).

With --baseline-file PATH (made by \`evals baseline save\`), each agent and model the file holds gets the file's band: its mean, its sd, and the bar one run must stay above (the mean less the margin the gate gives one run judged alone, at --confidence over the groups drawn).

The page makes no request: no script, style or font is fetched (a Content-Security-Policy forbids it), so it opens from a file or a CI artifact; light and dark follow the system, and it prints. With --run-url TEMPLATE (or $${RUN_URL_ENV}), each run ID links to its page, {id} standing for the ID. --json prints {"path","bytes","evalSetId","window","runs","groups":[{agent, model, runs, drawn, verdict, band}]}.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --html checkout.html',
    {
      description: 'The last week, each run ID linked to the control plane',
      command:
        "<%= config.bin %> <%= command.id %> es_acme_search --org acme --window 7d --html search.html --run-url 'https://app.example.com/runs/{id}'",
    },
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    html: Flags.string({description: 'write the HTML report here (atomically, mode 0644)', helpValue: 'PATH', required: true}),
    window: Flags.string({
      description: `draw the runs created within this long before now: 90m, 12h, 30d or seconds; 0 draws every run (default ${DEFAULT_WINDOW})`,
      helpValue: 'DURATION',
    }),
    confidence: Flags.string({
      description: `how sure a verdict of shifted or flaky (and a file's bar) is, ${HISTORY.minConfidence}–${HISTORY.maxConfidence} (default ${HISTORY.defaultConfidence})`,
      helpValue: 'C',
    }),
    'baseline-file': Flags.string({
      description: "draw each agent and model's band from this baseline file (made by `evals baseline save`): its mean, sd and bar",
      helpValue: 'PATH',
    }),
    'run-url': Flags.string({
      description: `link each run ID to its page, {id} standing for the ID (https://app.example.com/runs/{id}); default $${RUN_URL_ENV}`,
      helpValue: 'TEMPLATE',
    }),
  }

  async run(): Promise<EvalsReportResult> {
    const {args, flags} = await this.parse(EvalsReport)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const html = requirePath('--html', flags.html)
    const windowS = parseDuration('--window', flags.window ?? DEFAULT_WINDOW, {days: true})
    const confidence = parseConfidence(flags.confidence)
    const runUrl = reportRunUrl(true, flags['run-url'], this.ctx.env)
    const now = this.clock.wall()
    const filePath = flags['baseline-file'] === undefined ? undefined : requirePath('--baseline-file', flags['baseline-file'])
    vetWrites([{label: '--html', path: html}], filePath === undefined ? [] : [{label: '--baseline-file', path: filePath}])
    const read = filePath === undefined ? undefined : readBaselineFile(filePath, now, filePath)
    if (read !== undefined && read.file.evalSetId !== id) {
      throw new UsageError(`--baseline-file ${filePath} holds runs of eval set ${read.file.evalSetId}, not ${id}`)
    }
    const client = await this.ctx.http()
    const org = await this.ctx.org()
    if (read !== undefined && read.file.org !== org) {
      throw new UsageError(`--baseline-file ${filePath} holds runs of organization ${read.file.org}, not ${org}`)
    }
    const baselineFile: ReportBaselineFile | undefined =
      read === undefined || filePath === undefined
        ? undefined
        : {
            path: filePath,
            file: read.file,
            outcomes: read.outcomes,
            rules: {
              failFast: false,
              baseline: reportFileChoice(filePath, read.file, read.outcomes, confidence),
              quantile: await loadQuantile(),
              tolerance: await loadToleranceFactor(),
            },
          }

    const since = windowS === 0 ? undefined : now - windowS * 1000
    const report = new HistoryReport(id, since)
    await readHistory(client, org, {io: this.io, clock: this.clock, signals: this.signals}, (run) => report.add(run))

    const judge = {confidence, ...(await loadVerdictDistributions())}
    const {stats, model} = report.result({
      now,
      windowS,
      judge,
      org,
      ...(runUrl === undefined ? {} : {runUrl}),
      ...(baselineFile ? {baselineFile} : {}),
    })
    const bytes = writeReport(html, reportChunks(model))
    const groups = stats.groups.map((group, i): EvalsReportGroup => {
      const drawn = model.groups[i]
      const band =
        drawn.band !== undefined && drawn.band.margin !== undefined
          ? {mean: drawn.band.mean, sd: drawn.band.sd, margin: drawn.band.margin}
          : null
      return {agent: group.agent, model: group.model, runs: group.runs, drawn: chartCounts(drawn).drawn, verdict: group.verdict, band}
    })
    this.out.notice(
      `Wrote ${html}: ${plural(stats.runs, 'run')} of ${id} in ${plural(groups.length, 'group')} (${(bytes / 1024).toFixed(0)} KiB)`,
    )
    return {path: html, bytes, evalSetId: id, window: stats.window, runs: stats.runs, groups}
  }
}
