import {Args, Flags} from '@oclif/core'
import {runPages} from '../../../api/runs.js'
import {ApiCommand} from '../../../base/api-command.js'
import type {OperationId} from '../../../contract/routes.js'
import type {Run} from '../../../contract/types.js'
import {PAGE_LIMIT} from '../../../contract/vocabulary.js'
import {AmctlError, ExitCode, UsageError} from '../../../core/errors.js'
import {readText} from '../../../input/files.js'
import {vetWrite} from '../../../core/file-policy.js'
import {parseDuration, parseIntegerInRange, requireId} from '../../../input/values.js'
import {styled} from '../../../output/renderer.js'
import {plural} from '../../../output/format.js'
import {evalSetRuns, runIdsOf} from '../../../gate/baseline.js'
import {
  BASELINE_FILE_COLUMNS,
  type BaselineFileDocument,
  baselineDocument,
  leftOutText,
  newBaselineFile,
  writeBaselineFile,
} from '../../../gate/baseline-file.js'
import {WATCH_DEFAULTS} from '../../../gate/flags.js'
import {pollRuns} from '../../../gate/poll.js'
import {FILE, HISTORY, loadQuantile, loadVerdictDistributions} from '../../../gate/stats.js'
import {notFound} from '../../../gate/watch.js'
import {findChange} from '../../../gate/history-verdict.js'

export default class EvalsBaselineSave extends ApiCommand {
  static override summary = 'Save the runs a gate judges against (--baseline-file): a baseline file, reviewed like code'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `Writes PATH, a baseline file: per agent × model of the eval set, the runs \`runs watch\` and \`evals run --wait\` judge against with --baseline-file, instead of the organization's history that every branch's runs join (docs/ci.md "The baseline file").

By default the runs are the ones --baseline history would take today: the newest --baseline-runs (default ${FILE.defaultKeep}) runs of each agent and model that succeeded with a score within --baseline-window (default ${WATCH_DEFAULTS.baselineWindow}), outliers set aside by the same rule (and recorded as set aside). The organization's history mixes every branch's runs, so --runs builds the file from exactly the runs named instead: run IDs one a line, or the --json document of \`evals run\` (with or without --wait and --repeat) or \`runs watch\`, from a file or from stdin (-). A default-branch job launches \`--repeat K\` and saves those; a run that did not succeed with a score is left out and said so, a run of another eval set is exit 2, a run the organization does not have exit 5.

The file is JSON (schemas/baseline-file.json): version, org, evalSetId, savedAt, keep, and one group per agent × model with its runs [{id, score, createdAt}] oldest first, their mean and sd, and the runs set aside. Its members come in a fixed order and each run on a line of its own, so the git diff of an update shows the runs that changed. It is written atomically and replaces the file at PATH. stdout shows it as \`evals baseline show\` does; with no run to save, exit 5 and nothing is written.

A group whose saved runs changed level (the test behind \`evals stats\`' shifted verdict) holds two agents' worth of scores: its sd is wide and a drop back to the old level could pass. It is saved all the same, with a warning on stderr naming the first run of the new level and the --baseline-window that saves only it.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --file checkout-baseline.json',
    {
      description: 'On the default branch: launch five times, wait, and save exactly those runs',
      command:
        '<%= config.bin %> evals run es_acme_search --org acme --wait --repeat 5 --json | <%= config.bin %> <%= command.id %> es_acme_search --org acme --file search-baseline.json --runs -',
    },
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    file: Flags.string({
      description: 'write the baseline file here (atomically; an existing file is replaced)',
      helpValue: 'PATH',
      required: true,
    }),
    'baseline-runs': Flags.string({
      description: `keep the newest N runs of each agent and model, ${HISTORY.minRuns}–${HISTORY.maxRuns} (default ${FILE.defaultKeep}); --update-baseline keeps as many`,
      helpValue: 'N',
    }),
    'baseline-window': Flags.string({
      description: `without --runs: the runs created within this long before now: 90m, 12h, 30d; 0 = no limit (default ${WATCH_DEFAULTS.baselineWindow})`,
      helpValue: 'DURATION',
    }),
    runs: Flags.string({
      description:
        'save exactly these runs instead of the history: run IDs one a line, or the --json document of evals run or runs watch; - reads stdin',
      helpValue: 'FILE|-',
    }),
  }

  async run(): Promise<BaselineFileDocument> {
    const {args, flags} = await this.parse(EvalsBaselineSave)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const path = flags.file
    if (path.trim() === '') throw new UsageError('--file must be a file path, got ""')
    vetWrite('--file', path)
    const keep =
      flags['baseline-runs'] === undefined
        ? FILE.defaultKeep
        : parseIntegerInRange('--baseline-runs', flags['baseline-runs'], HISTORY.minRuns, HISTORY.maxRuns)
    if (flags.runs !== undefined && flags['baseline-window'] !== undefined) {
      throw new UsageError('--baseline-window acts only without --runs (the runs named are saved whatever their age)')
    }
    const windowS = parseDuration('--baseline-window', flags['baseline-window'] ?? WATCH_DEFAULTS.baselineWindow, {days: true})
    let named: string[] | undefined
    if (flags.runs !== undefined) {
      if (flags.runs === '-' && this.io.stdinIsTTY) this.out.notice('Type the run IDs, then press Ctrl-D:')
      named = [...new Set(runIdsOf(await readText(flags.runs, this.io.stdin, '--runs'), '--runs'))]
    }
    const client = await this.ctx.http()
    const org = await this.ctx.org()
    const quantile = await loadQuantile()
    const now = this.clock.wall()
    const pages = () => runPages(client, org, {query: {limit: PAGE_LIMIT.max}})
    let runs: Run[]
    if (named !== undefined) {
      const {found, missing} = await pollRuns(pages(), new Set(named))
      if (missing.length > 0) throw notFound(missing, `the runs of ${org}`)
      runs = named.map((runId) => found.get(runId) as Run)
      const other = runs.find((run) => run.evalSetId !== id)
      if (other !== undefined) throw new UsageError(`--runs: run ${other.id} is of eval set ${String(other.evalSetId)}, not ${id}`)
    } else {
      runs = await evalSetRuns(pages(), id, windowS === 0 ? undefined : now - windowS * 1000)
    }
    const {file, leftOut: cannot} = newBaselineFile({org, evalSetId: id, savedAt: new Date(now).toISOString(), keep}, runs, quantile, now)
    const saved = file.groups.reduce((n, g) => n + g.runs.length, 0)
    const setAside = file.groups.reduce((n, g) => n + g.setAside.length, 0)
    if (saved + setAside === 0) {
      const none =
        named === undefined
          ? `no run of ${id} in ${org} succeeded with a score${windowS === 0 ? '' : ` within ${flags['baseline-window'] ?? WATCH_DEFAULTS.baselineWindow}`}`
          : `none of the ${named.length} runs named succeeded with a score`
      throw new AmctlError(`${none}: nothing to save, ${path} is unchanged`, {code: 'not_found', exitCode: ExitCode.notFound})
    }
    writeBaselineFile(path, file)
    const aside = setAside === 0 ? '' : `, ${setAside} set aside as outliers`
    const outcomes = file.groups.reduce((n, g) => n + g.failed.length + g.cancelled.length, 0)
    const failures = outcomes === 0 ? '' : `, ${plural(outcomes, 'failed or cancelled run')} (the failure rate)`
    // (named runs still queued or running, or succeeded without a score, are no baseline's)
    const recorded = new Set(file.groups.flatMap((g) => [...g.runs, ...g.setAside, ...g.failed, ...g.cancelled].map((r) => r.id)))
    const left = named === undefined ? 0 : runs.filter((run) => !recorded.has(run.id) && !cannot.some((c) => c.id === run.id)).length
    const leftOut = left === 0 ? '' : `; ${plural(left, 'run')} named left out (not finished, or succeeded without a score)`
    this.out.notice(
      `Saved ${plural(saved, 'run')} of ${id} in ${plural(file.groups.length, 'group')} to ${path}${aside}${failures}${leftOut}`,
    )
    const why = leftOutText(cannot)
    if (why !== undefined) this.out.warning(why)
    await this.warnOfShifts(file.groups, named === undefined ? now : undefined)
    const document = baselineDocument(file, path, {confidence: HISTORY.defaultConfidence, ...(await loadVerdictDistributions())})
    if (this.out.tty) this.out.notice(styled(`keeps the newest ${keep} runs of each agent and model`, 'dim'))
    this.out.list(document.groups, BASELINE_FILE_COLUMNS)
    return document
  }

  /**
   * A group whose saved runs changed level (the change-point test of `evals stats`, at the
   * default confidence) is a file that mixes two agents: its sd is wide and a later drop to the
   * old level may pass. The file is written all the same (the runs are what was asked for); one
   * warning a group says where the new level starts and the window that keeps only it.
   */
  private async warnOfShifts(
    groups: ReadonlyArray<{
      agent: string | null
      model: string | null
      runs: ReadonlyArray<{id: string; score: number; createdAt: string}>
    }>,
    now: number | undefined,
  ): Promise<void> {
    const {normalQuantile} = await loadVerdictDistributions()
    for (const group of groups) {
      const scores = group.runs.map((run) => run.score)
      const change = findChange(scores, HISTORY.defaultConfidence, normalQuantile)
      if (change === undefined) continue
      const first = group.runs[change.at]
      const window =
        now === undefined ? undefined : windowFrom(now, Date.parse(first.createdAt), Date.parse(group.runs[change.at - 1].createdAt))
      const fix = window === undefined ? 'other --runs' : `--baseline-window ${window}`
      this.out.warning(
        `${group.agent ?? '(no agent)'} / ${group.model ?? '(no model)'}: its scores moved from ${change.before.toFixed(2)} to ${change.after.toFixed(2)} at ${first.id} (${first.createdAt}); the file holds both levels, so its sd is wide. Save only the new level with ${fix}, or see \`amctl evals stats\``,
      )
    }
  }
}

/**
 * The shortest --baseline-window, in whole hours, minutes or else seconds (the coarsest that
 * works), that reaches back from `now` to the run created at `first` and not to the one before it,
 * created at `before`.
 */
function windowFrom(now: number, first: number, before: number): string {
  const units: Array<[number, string]> = [
    [3_600_000, 'h'],
    [60_000, 'm'],
  ]
  for (const [ms, unit] of units) {
    const n = Math.ceil((now - first) / ms)
    if (now - n * ms > before) return `${n}${unit}`
  }
  return String(Math.ceil((now - first) / 1000))
}
