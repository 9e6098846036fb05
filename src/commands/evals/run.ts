import {Args, Flags} from '@oclif/core'
import {type LaunchOutcome, launchEvalSet} from '../../api/evals.js'
import {commandResult, type Finished, type UnknownOutcome} from '../../base/results.js'
import type {ErrorDocument} from '../../core/errors.js'
import type {LaunchResult, Run} from '../../contract/types.js'
import {UsageError} from '../../core/errors.js'
import {requireId} from '../../input/values.js'
import {styled} from '../../output/renderer.js'
import {RUN_COLUMNS} from '../../output/run-columns.js'
import type {OperationId} from '../../contract/routes.js'
import {sightingsOfRuns} from '../../core/recent.js'
import {GateCommand} from '../../gate/command.js'
import {checkReportPaths} from '../../gate/report.js'
import {resolveBaseline, waitResult, type WatchedRun, type BaselineUpdateDocument} from '../../gate/wait.js'
import {
  againCommand,
  parseRepeat,
  parseWatchOptions,
  RELAUNCH,
  REPEAT,
  type WatchFlagValues,
  watchFlags,
  watchFlagWords,
} from '../../gate/flags.js'
import {type LaunchPolicy, launchAndWait} from '../../gate/launches.js'
import {plural} from '../../output/format.js'
import type {GatedGroup, ReportedResult} from '../../gate/result.js'

/** --json when a launch was sent and no answer came (exit 9). */
export interface UnknownLaunch {
  outcome: 'unknown'
  /** the organization's newest runs, to see whether the launch happened */
  recentRuns: Run[]
  error: ErrorDocument['error']
  /** with --repeat: the launches answered before the one that got no answer */
  launches?: LaunchResult[]
}

/** --json with --wait: the launch's answer and its runs in their last known state. */
export type WaitedLaunch = LaunchResult & {
  runs: WatchedRun[]
  /** the runs not finished when the wait ended (a timeout, --fail-fast): they go on on the server, which cannot cancel runs */
  unfinishedRunIds: string[]
  /** --update-baseline: what it added to the baseline file, or why it did not, and the groups whose level moved or that fail more */
  baselineUpdate?: BaselineUpdateDocument
  /** the gate's result, as every report is made from it (src/gate/result.ts ReportedResult) */
  gate: ReportedResult
}

/** --json with --wait --repeat K: every launch, each agent × model as one group, every run. */
export interface RepeatedLaunch {
  batchIds: string[]
  runIds: string[]
  launches: LaunchResult[]
  groups: GatedGroup[]
  runs: WatchedRun[]
  /** the runs not finished when the wait ended (a timeout, --fail-fast): they go on on the server, which cannot cancel runs */
  unfinishedRunIds: string[]
  /** --update-baseline: what it added to the baseline file, or why it did not, and the groups whose level moved or that fail more */
  baselineUpdate?: BaselineUpdateDocument
  /** the gate's result, as every report is made from it (src/gate/result.ts ReportedResult) */
  gate: ReportedResult
}

export default class EvalsRun extends GateCommand {
  static override summary = "Launch an eval set's saved settings"
  static operations: OperationId[] = ['runEvalSet', 'listRuns']
  static override description =
    `Launches the eval set once and prints the batch and run IDs it created. If the launch got no answer, amctl does not launch again: it lists the newest runs so you can see whether it happened, and exits 9 (--json: {"outcome":"unknown","recentRuns":[…]}).

--wait then waits for the runs and judges them as \`runs watch\` does (the same flags and exit codes; --json adds "runs"). --repeat K launches K times and judges each agent and model as one group, on the mean of its scores. --repeat auto (with a baseline of many runs and --max-drop) launches one at a time, up to --max-repeat, only while a group is undecided. With a baseline of many runs, a group none of whose runs succeeded, its failures within its rate, is launched again (--relaunches, default ${RELAUNCH.default}).

Set it up: docs/ci.md. Every rule, output field and figure: docs/ci-reference.md.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme',
    "<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --jq '.runIds[]'",
    {
      description: 'In CI: launch, wait at most 30 minutes, and fail the step unless every run succeeded with a score of at least 0.4',
      command: '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --wait --wait-timeout 30m --min-score 0.4',
    },
    {
      description:
        'In CI with reports: fail when a run scores below the noise of the earlier runs of the same agent and model (false alarms: at most 5 % of unchanged steps); write JUnit XML and a Markdown summary',
      command:
        '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --wait --baseline history --junit reports/evals.xml --summary reports/evals.md',
    },
    {
      description: 'Launch three times and judge each agent and model on the mean of its three scores (a smaller drop is told from noise)',
      command: '<%= config.bin %> <%= command.id %> es_acme_search --org acme --wait --repeat 3 --baseline history',
    },
    {
      description:
        'A pull request: judge against the baseline file committed to the repository (a pull request never changes it); launch again only while an agent and model is still in doubt about a drop of 0.10',
      command:
        '<%= config.bin %> <%= command.id %> es_acme_search --org acme --wait --baseline-file search-baseline.json --repeat auto --max-drop 0.1',
    },
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    wait: Flags.boolean({description: 'wait for the launched runs to finish (exit 0, 10 or 11)', helpGroup: 'WAIT'}),
    repeat: Flags.string({
      description: `with --wait: launch K times (${REPEAT.min}–${REPEAT.max}) and judge each agent and model on the mean of its K scores; auto: one launch at a time until every group is regressed or cleared of --max-drop (needs --baseline history or --baseline-file)`,
      helpValue: 'K|auto',
      helpGroup: 'WAIT',
    }),
    'max-repeat': Flags.string({
      description: `--repeat auto: at most K launches, ${REPEAT.min}–${REPEAT.max} (default ${REPEAT.defaultMaxRepeat}); a group still undecided then is inconclusive`,
      helpValue: 'K',
      helpGroup: 'WAIT',
    }),
    relaunches: Flags.string({
      description: `with --wait and --baseline history or --baseline-file: launch again, at most N times (0–${RELAUNCH.max}; default ${RELAUNCH.default}), while a group none of whose runs succeeded has only failures within its rate or cancelled runs; 0: no relaunch`,
      helpValue: 'N',
      helpGroup: 'WAIT',
    }),
    ...watchFlags,
  }

  async run(): Promise<LaunchResult | UnknownOutcome<Run, UnknownLaunch> | Finished<unknown, WaitedLaunch | RepeatedLaunch>> {
    const {args, flags} = await this.parse(EvalsRun)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const repeatFlag = (['repeat', 'max-repeat', 'relaunches'] as const).find((name) => flags[name] !== undefined)
    const given = repeatFlag === undefined ? watchFlagWords(flags)[0] : `--${repeatFlag}`
    if (!flags.wait && given !== undefined) throw new UsageError(`${given} acts only with --wait`)
    const plan = flags.wait ? parseWatchOptions(flags, this.ctx.env, this.clock.wall()) : undefined
    const repeatPlan = parseRepeat(flags, plan?.options)
    if (plan) checkReportPaths(plan)
    const gate = await this.gate()
    const {org} = gate
    if (plan === undefined) return this.launchOnce(id, org, flags)
    // --baseline RUN_ID is looked up before the launch: a wrong one launches nothing
    const options = await resolveBaseline(plan, gate, id)
    const asGroups = repeatPlan.kind === 'auto' || repeatPlan.k > 1
    const policy: LaunchPolicy & {asGroups: boolean} =
      repeatPlan.kind === 'auto'
        ? {first: 1, max: repeatPlan.maxRepeat, auto: true, asGroups}
        : {first: repeatPlan.k, max: repeatPlan.k + repeatPlan.relaunches, auto: false, asGroups}
    const end = await launchAndWait(
      id,
      options,
      policy,
      plan.reports,
      gate,
      (ids) => ({again: againCommand(ids, org, flags), evalSetId: id}),
      {
        launched: (launches: LaunchResult[]) => {
          const runIds = launches.flatMap((l) => l.runIds ?? [])
          this.ctx.saw([
            {kind: 'evalSets', id, org},
            ...runIds.map((runId) => ({kind: 'runs' as const, id: runId, org, note: `launched, ${id}`})),
          ])
          const batches = launches.flatMap((l) => l.batchIds ?? []).length
          const times = launches.length === 1 ? '' : ` ${launches.length} times`
          this.out.notice(`Launched eval set ${id}${times}: ${batches} batch${batches === 1 ? '' : 'es'}, ${plural(runIds.length, 'run')}`)
        },
      },
    )
    if (end.kind === 'unknown') {
      return this.unknown(end.launch, id, org, end.launches, policy.max === 1 ? undefined : end.which)
    }
    const {launches} = end
    const batchIds = launches.flatMap((l) => l.batchIds ?? [])
    const runIds = launches.flatMap((l) => l.runIds ?? [])
    this.ctx.saw(sightingsOfRuns(org, end.outcome.state.runs()))
    const error = end.kind === 'failed' ? {error: end.error.toDocument().error} : {}
    const failure = end.kind === 'failed' ? end.error : undefined
    if (asGroups) {
      return waitResult(
        end,
        (runs, {groups, ...extras}): RepeatedLaunch => ({batchIds, runIds, launches, groups: groups ?? [], runs, ...extras, ...error}),
        {asGroups, error: failure},
      )
    }
    // one launch's answer, with the runs of every launch the step made (the relaunches' too)
    return waitResult(
      end,
      (runs, extras): WaitedLaunch => ({
        ...launches[0],
        batchIds,
        runIds,
        ...(launches.length > 1 ? {launches} : {}),
        runs,
        ...extras,
        ...error,
      }),
      {asGroups, error: failure},
    )
  }

  /** Without --wait: one launch, its answer on stdout (contract 1.6: an unknown outcome is exit 9, never a second launch). */
  private async launchOnce(id: string, org: string, flags: WatchFlagValues): Promise<LaunchResult | UnknownOutcome<Run, UnknownLaunch>> {
    const client = (await this.gate()).client
    const launch = await launchEvalSet(client, org, id)
    if (launch.outcome === 'unknown') return this.unknown(launch, id, org, [], undefined)
    const {result} = launch
    const runIds = result.runIds ?? []
    this.ctx.saw([
      {kind: 'evalSets', id, org},
      ...runIds.map((runId) => ({kind: 'runs' as const, id: runId, org, note: `launched, ${id}`})),
    ])
    this.out.object(result)
    const batches = (result.batchIds ?? []).length
    this.out.notice(`Launched eval set ${id}: ${batches} batch${batches === 1 ? '' : 'es'}, ${plural(runIds.length, 'run')}`)
    if (runIds.length > 0 && this.io.stderrIsTTY) this.out.notice(styled(`watch them: ${againCommand(runIds, org, flags)}`, 'dim'))
    return result
  }

  /**
   * A launch got no answer (contract 1.6): exit 9, never a second launch. With --repeat the
   * launches already made are not waited for either (a group of fewer than K runs is not what
   * the step asked to judge): their runs are named, so they can be watched or left.
   */
  private unknown(
    launch: Extract<LaunchOutcome, {outcome: 'unknown'}>,
    id: string,
    org: string,
    launches: LaunchResult[],
    /** with more than one launch: which got no answer ("launch 2 of 3") */
    repeat: string | undefined,
  ): UnknownOutcome<Run, UnknownLaunch> {
    const {error, recentRuns, listError} = launch
    const made = launches.flatMap((l) => l.runIds ?? [])
    if (repeat !== undefined) {
      const which = `${repeat} got no answer; no further launch was made and nothing is waited for`
      const earlier = made.length === 0 ? '' : `: the earlier launches started ${made.join(', ')}`
      this.out.notice(`${which}${earlier}`)
    }
    return commandResult({
      kind: 'unknown-outcome',
      error,
      recent: listError
        ? {listError}
        : {
            title: `The newest runs of ${org}: check whether the launch of ${id} is among them before retrying`,
            items: recentRuns,
            columns: RUN_COLUMNS,
          },
      document: {outcome: 'unknown' as const, recentRuns, error: error.toDocument().error, ...(repeat !== undefined ? {launches} : {})},
    })
  }
}
