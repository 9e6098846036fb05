import {Args, Flags} from '@oclif/core'
import {type LaunchOutcome, launchEvalSet} from '../../api/evals.js'
import {commandResult, type Finished, type UnknownOutcome} from '../../base/results.js'
import type {ErrorDocument} from '../../core/errors.js'
import type {LaunchResult, Run} from '../../contract/types.js'
import {UsageError} from '../../core/errors.js'
import {parseIntegerInRange, requireId} from '../../input/values.js'
import {styled} from '../../output/renderer.js'
import {RUN_COLUMNS} from '../../output/run-columns.js'
import type {OperationId} from '../../contract/routes.js'
import {sightingsOfRuns} from '../../core/recent.js'
import {GateCommand} from '../../gate/command.js'
import {checkReportPaths} from '../../gate/report.js'
import {resolveBaseline, waitForRuns, waitResult, type WatchedRun} from '../../gate/wait.js'
import {againCommand, parseWatchOptions, REPEAT, watchFlags, watchFlagWords} from '../../gate/flags.js'
import type {GroupRow} from '../../gate/columns.js'

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
}

/** --json with --wait --repeat K: every launch, each agent × model as one group, every run. */
export interface RepeatedLaunch {
  batchIds: string[]
  runIds: string[]
  launches: LaunchResult[]
  groups: GroupRow[]
  runs: WatchedRun[]
  /** the runs not finished when the wait ended (a timeout, --fail-fast): they go on on the server, which cannot cancel runs */
  unfinishedRunIds: string[]
}

export default class EvalsRun extends GateCommand {
  static override summary = "Launch an eval set's saved settings"
  static operations: OperationId[] = ['runEvalSet', 'listRuns']
  static override description = `Launches the eval set once and prints the batch and run IDs it created.

If the launch was sent and no answer came (timeout, dropped connection), amctl does not launch again: it lists the organization's newest runs so you can see whether the launch happened, and exits 9. With --json that is {"outcome":"unknown","recentRuns":[…],"error":{…}}.

--wait then waits for the launched runs as \`runs watch\` does (the same --interval, --wait-timeout, --fail-fast, --min-score, the regression gate --baseline and --max-drop, and the reports --junit and --summary, checked before the launch): stdout holds the runs in their last known state (with --json, the launch response with a "runs" member and "unfinishedRunIds"), and the exit code says how they ended: 0 all succeeded, 10 some did not pass, 11 the time limit came first, 130 Ctrl-C (the runs go on: the API cannot cancel runs; the runs still going are named on stderr). A launch whose outcome is unknown is never waited for: exit 9 as above.

--repeat K (with --wait) launches the eval set K times, one launch after another, waits for all the runs, and judges the runs of each agent and model as one group: its score is the mean of its runs' scores (with --baseline history the margin narrows with K). A group with a run that failed or was cancelled shows how many; fewer than half is "flaky" (judged on the others, and said so everywhere), half or more is "failed". If a launch gets no answer, no further launch is made and nothing is waited for: exit 9, listing the runs the earlier launches started. A launch that answers a run ID an earlier launch did (or one answer listing a run twice) is a bad answer: exit 1, no further launch. --json then gives "launches" (each launch's answer) and "groups" (agent, model, evalSetId, runIds, scores, score, baseline, delta, margin, verdict); piped, one row per group: eval set, agent, model, run IDs, failed, score, then the gate's fields as \`runs watch\` writes them (verdict first).`

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
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    wait: Flags.boolean({description: 'wait for the launched runs to finish (exit 0, 10 or 11)', helpGroup: 'WAIT'}),
    repeat: Flags.string({
      description: `with --wait: launch K times (${REPEAT.min}–${REPEAT.max}) and judge each agent and model on the mean of its K scores`,
      helpValue: 'K',
      helpGroup: 'WAIT',
    }),
    ...watchFlags,
  }

  async run(): Promise<LaunchResult | UnknownOutcome<Run, UnknownLaunch> | Finished<unknown, WaitedLaunch | RepeatedLaunch>> {
    const {args, flags} = await this.parse(EvalsRun)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const given = flags.repeat === undefined ? watchFlagWords(flags)[0] : '--repeat'
    if (!flags.wait && given !== undefined) throw new UsageError(`${given} acts only with --wait`)
    const repeat = flags.repeat === undefined ? 1 : parseIntegerInRange('--repeat', flags.repeat, REPEAT.min, REPEAT.max)
    const plan = flags.wait ? parseWatchOptions(flags, this.ctx.env) : undefined
    if (plan) checkReportPaths(plan.reports)
    const gate = await this.gate()
    const {client, org} = gate
    // --baseline RUN_ID is looked up before the launch: a wrong one launches nothing
    const options = plan ? await resolveBaseline(plan, gate) : undefined
    const launches: LaunchResult[] = []
    for (let i = 0; i < repeat; i++) {
      const earlier = new Set(launches.flatMap((l) => l.runIds ?? []))
      const launch = await launchEvalSet(client, org, id, repeat === 1 ? undefined : {number: i + 1, of: repeat, earlier})
      if (launch.outcome === 'unknown') return this.unknown(launch, id, org, launches, repeat)
      launches.push(launch.result)
    }
    const batchIds = launches.flatMap((l) => l.batchIds ?? [])
    const runIds = launches.flatMap((l) => l.runIds ?? [])
    this.ctx.saw([
      {kind: 'evalSets', id, org},
      ...runIds.map((runId) => ({kind: 'runs' as const, id: runId, org, note: `launched, ${id}`})),
    ])
    // with --wait, stdout holds the runs at the end (like `runs watch`); the launch is told on stderr
    if (!options) this.out.object(launches[0])
    const times = repeat === 1 ? '' : ` ${repeat} times`
    this.out.notice(
      `Launched eval set ${id}${times}: ${batchIds.length} batch${batchIds.length === 1 ? '' : 'es'}, ${runIds.length} run${runIds.length === 1 ? '' : 's'}`,
    )
    if (!options) {
      if (runIds.length > 0 && this.io.stderrIsTTY) this.out.notice(styled(`watch them: ${againCommand(runIds, org, flags)}`, 'dim'))
      return launches[0]
    }
    const outcome = await waitForRuns(runIds, {...options, grouped: repeat > 1}, plan?.reports ?? {annotations: false}, gate, {
      again: againCommand(runIds, org, flags),
      evalSetId: id,
    })
    const result =
      repeat === 1
        ? waitResult(outcome, (runs, {unfinishedRunIds}): WaitedLaunch => ({...launches[0], runs, unfinishedRunIds}))
        : waitResult(
            outcome,
            (runs, {groups, unfinishedRunIds}): RepeatedLaunch => ({
              batchIds,
              runIds,
              launches,
              groups: groups ?? [],
              runs,
              unfinishedRunIds,
            }),
          )
    this.ctx.saw(sightingsOfRuns(org, outcome.state.runs()))
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
    repeat: number,
  ): UnknownOutcome<Run, UnknownLaunch> {
    const {error, recentRuns, listError} = launch
    const made = launches.flatMap((l) => l.runIds ?? [])
    if (repeat > 1) {
      const which = `launch ${launches.length + 1} of ${repeat} got no answer; no further launch was made and nothing is waited for`
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
      document: {outcome: 'unknown' as const, recentRuns, error: error.toDocument().error, ...(repeat > 1 ? {launches} : {})},
    })
  }
}
