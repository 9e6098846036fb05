import {Args, Flags} from '@oclif/core'
import {launchEvalSet} from '../../api/evals.js'
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
import {resolveBaseline, waitForRuns, waitResult, type WatchedRun} from '../../gate/wait.js'
import {againCommand, parseWatchOptions, watchFlags, watchFlagWords} from '../../gate/flags.js'

/** --json when the launch was sent and no answer came (exit 9). */
export interface UnknownLaunch {
  outcome: 'unknown'
  /** the organization's newest runs, to see whether the launch happened */
  recentRuns: Run[]
  error: ErrorDocument['error']
}

/** --json with --wait: the launch's answer and its runs in their last known state. */
export type WaitedLaunch = LaunchResult & {runs: WatchedRun[]}

export default class EvalsRun extends GateCommand {
  static override summary = "Launch an eval set's saved settings"
  static operations: OperationId[] = ['runEvalSet', 'listRuns']
  static override description = `Launches the eval set once and prints the batch and run IDs it created.

If the launch was sent and no answer came (timeout, dropped connection), amctl does not launch again: it lists the organization's newest runs so you can see whether the launch happened, and exits 9. With --json that is {"outcome":"unknown","recentRuns":[…],"error":{…}}.

--wait then waits for the launched runs as \`runs watch\` does (the same --interval, --wait-timeout, --fail-fast, --min-score, the regression gate --baseline and --max-drop, and the reports --junit and --summary, checked before the launch): stdout holds the runs in their last known state (with --json, the launch response with a "runs" member), and the exit code says how they ended: 0 all succeeded, 10 some did not pass, 11 the time limit came first, 130 Ctrl-C (the runs go on). A launch whose outcome is unknown is never waited for: exit 9 as above.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme',
    "<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --jq '.runIds[]'",
    {
      description: 'In CI: launch, wait at most 30 minutes, and fail the step unless every run succeeded with a score of at least 0.4',
      command: '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --wait --wait-timeout 30m --min-score 0.4',
    },
    {
      description:
        'In CI with reports: also fail on a drop of more than 0.1 from the previous runs of the same agent and model; write JUnit XML and a Markdown summary',
      command:
        '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --wait --baseline previous --max-drop 0.1 --junit reports/evals.xml --summary reports/evals.md',
    },
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    wait: Flags.boolean({description: 'wait for the launched runs to finish (exit 0, 10 or 11)', helpGroup: 'WAIT'}),
    ...watchFlags,
  }

  async run(): Promise<LaunchResult | UnknownOutcome<Run, UnknownLaunch> | Finished<Run, WaitedLaunch>> {
    const {args, flags} = await this.parse(EvalsRun)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const given = watchFlagWords(flags)[0]
    if (!flags.wait && given !== undefined) throw new UsageError(`${given} acts only with --wait`)
    const plan = flags.wait ? parseWatchOptions(flags, this.ctx.env) : undefined
    if (plan) checkReportPaths(plan.reports)
    const gate = await this.gate()
    const {client, org} = gate
    // --baseline RUN_ID is looked up before the launch: a wrong one launches nothing
    const options = plan ? await resolveBaseline(plan, gate) : undefined
    const launch = await launchEvalSet(client, org, id)
    if (launch.outcome === 'unknown') {
      const {error, recentRuns, listError} = launch
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
        document: {outcome: 'unknown' as const, recentRuns, error: error.toDocument().error},
      })
    }
    const {batchIds = [], runIds = []} = launch.result
    this.ctx.saw([
      {kind: 'evalSets', id, org},
      ...runIds.map((runId) => ({kind: 'runs' as const, id: runId, org, note: `launched, ${id}`})),
    ])
    // with --wait, stdout holds the runs at the end (like `runs watch`); the launch is told on stderr
    if (!options) this.out.object(launch.result)
    this.out.notice(
      `Launched eval set ${id}: ${batchIds.length} batch${batchIds.length === 1 ? '' : 'es'}, ${runIds.length} run${runIds.length === 1 ? '' : 's'}`,
    )
    if (!options) {
      if (runIds.length > 0 && this.io.stderrIsTTY) this.out.notice(styled(`watch them: ${againCommand(runIds, org, flags)}`, 'dim'))
      return launch.result
    }
    const outcome = await waitForRuns(runIds, options, plan?.reports ?? {annotations: false}, gate, {
      again: againCommand(runIds, org, flags),
      evalSetId: id,
    })
    const result = waitResult(outcome, (runs): WaitedLaunch => ({...launch.result, runs}))
    this.ctx.saw(sightingsOfRuns(org, result.list?.items ?? []))
    return result
  }
}
