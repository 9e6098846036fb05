import {Args, Flags} from '@oclif/core'
import {ApiCommand} from '../../base/api-command.js'
import type {OperationId} from '../../contract/routes.js'
import {PAGE_LIMIT} from '../../contract/vocabulary.js'
import {parseConfidence} from '../../gate/flags.js'
import {HISTORY, loadVerdictDistributions} from '../../gate/stats.js'
import {parseDuration, requireId} from '../../input/values.js'
import {styled} from '../../output/renderer.js'
import {TREND_LENGTH} from '../../output/sparkline.js'
import {type EvalStats, EvalStatsTally, readHistory, statsColumns} from '../../gate/history-stats.js'
import {shiftLine, VERDICT} from '../../gate/history-verdict.js'

export type {EvalStats as EvalsStatsResult, EvalStatsGroup} from '../../gate/history-stats.js'

const DEFAULT_WINDOW = '30d'

export default class EvalsStats extends ApiCommand {
  static override summary =
    'Show how each agent and model does on an eval set: runs, failures, mean score and its noise, the trend, and whether the scores moved'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `For each agent × model of the eval set, over the runs created within --window (default ${DEFAULT_WINDOW}; 0: every run): how many runs, the share of the finished ones that succeeded, failed and were cancelled (how flaky it is), the mean and sample standard deviation of the scores of the succeeded runs (how noisy it is), the last score, and on a terminal the trend of the last ${TREND_LENGTH} scores as a sparkline (oldest first; every row on one scale, at least 0.1 wide, so a noisier line is a taller one).

The API has no filters, so amctl reads the organization's run list from the newest, ${PAGE_LIMIT.max} to a page, and stops at the first page that reaches runs older than the window; each page is counted and dropped as it arrives, so memory stays flat however long the list. A run whose score is not a number from 0 to 1, or whose createdAt is not a date, is a bad answer (exit 1).

Each agent × model gets a verdict, each a test at --confidence C (default ${HISTORY.defaultConfidence}: an unchanged agent and model is called shifted, or flaky, at most 1 − C of the time): shifted when its scores changed level within the window beyond noise (a change-point test over its newest ${VERDICT.maxScores} scores, Bonferroni over the places a change could be; the newest change found is the shift), flaky when more of its finished runs failed than a failure rate of ${VERDICT.flakyRate * 100} % explains (one-sided exact binomial test; cancelled runs are not failures), too-few with fewer than ${2 * VERDICT.minSegment} scores (and not flaky), else stable. On a terminal, each shift is described under the table.

--json prints {"evalSetId","window":{"seconds","since","until"},"runs","groups":[…]}; each group: agent, model, runs, succeeded, failed, cancelled, unfinished, share {succeeded, failed, cancelled} (of the finished runs; null when none finished), scored, mean, sd (null with fewer than two scores), last {runId, score, createdAt}, trend (the last ${TREND_LENGTH} scores, oldest first), verdict, shift {runId, createdAt, before, after, delta} (the first run of the new level, the mean score before it and since; null unless shifted). Piped, one line per agent × model: agent, model, runs, the three shares, mean, sd, last score, verdict, then the shift's run ID, createdAt, before, after and delta (empty unless shifted).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_search --org acme',
    {
      description: 'The last week of one eval set, as JSON',
      command: '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --window 7d --json',
    },
    {
      description: 'The flaky ones: agents and models with more than 10 % of their finished runs failed',
      command:
        '<%= config.bin %> <%= command.id %> es_acme_search --org acme --jq \'.groups[] | select(.share.failed > 0.1) | "\\(.agent) \\(.model)"\'',
    },
    {
      description: 'When the scores moved: each shifted agent and model, its first run of the new level and by how much',
      command:
        '<%= config.bin %> <%= command.id %> es_acme_search --org acme --jq \'.groups[] | select(.verdict == "shifted") | [.agent, .model, .shift.runId, .shift.delta] | @tsv\'',
    },
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    window: Flags.string({
      description: `count the runs created within this long before now: 90m, 12h, 30d or seconds; 0 counts every run (default ${DEFAULT_WINDOW})`,
      helpValue: 'DURATION',
    }),
    confidence: Flags.string({
      description: `how sure a verdict of shifted or flaky is: an unchanged agent and model gets one at most 1 − C of the time, ${HISTORY.minConfidence}–${HISTORY.maxConfidence} (default ${HISTORY.defaultConfidence})`,
      helpValue: 'C',
    }),
  }

  async run(): Promise<EvalStats> {
    const {args, flags} = await this.parse(EvalsStats)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const windowS = parseDuration('--window', flags.window ?? DEFAULT_WINDOW, {days: true})
    const confidence = parseConfidence(flags.confidence)
    const now = this.clock.wall()
    const since = windowS === 0 ? undefined : now - windowS * 1000
    const client = await this.ctx.http()
    const org = await this.ctx.org()

    const tally = new EvalStatsTally(id, since)
    await readHistory(client, org, {io: this.io, clock: this.clock, signals: this.signals}, (run) => tally.add(run))

    const stats = tally.result(windowS, now, {confidence, ...(await loadVerdictDistributions())})
    const within = since === undefined ? 'of any date' : `created since ${new Date(since).toISOString().slice(0, 16).replace('T', ' ')} UTC`
    const unfinished = stats.groups.reduce((n, group) => n + group.unfinished, 0)
    const open = unfinished === 0 ? '' : ` (${unfinished.toLocaleString('en-US')} not finished)`
    if (this.out.tty && stats.runs > 0) this.out.notice(styled(`${id}: ${plural(stats.runs, 'run')} ${within}${open}`, 'dim'))
    this.out.list(stats.groups, statsColumns(stats.groups), `no runs of ${id} ${within} in ${org}`)
    if (this.out.tty) for (const group of stats.groups) if (group.shift !== null) this.out.notice(shiftLine(group, group.shift))
    return stats
  }
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`
}
