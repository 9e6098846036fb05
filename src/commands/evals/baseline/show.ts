import {Args} from '@oclif/core'
import {BaseCommand} from '../../../base/base-command.js'
import type {OperationId} from '../../../contract/routes.js'
import {BASELINE_FILE_COLUMNS, type BaselineFileDocument, baselineDocument, readBaselineFile} from '../../../gate/baseline-file.js'
import {shiftLine, VERDICT} from '../../../gate/history-verdict.js'
import {HISTORY, loadVerdictDistributions} from '../../../gate/stats.js'
import {styled} from '../../../output/renderer.js'
import {relativeTime} from '../../../output/time.js'

export default class EvalsBaselineShow extends BaseCommand {
  /** it reads a file: no request */
  static operations: OperationId[] = []
  static override summary =
    'Show a baseline file: each agent and model, its runs, mean ± sd, the newest run, a trend and whether its scores moved'
  static override description =
    `Reads the baseline file at PATH (made by \`evals baseline save\`, judged against by --baseline-file) and shows one row per agent × model: how many runs it holds, their mean and standard deviation, when its newest run was created (how old the baseline is: --baseline-max-age warns past 30d), how many runs were set aside as outliers, the verdict of \`evals stats\` on its runs, and on a terminal the newest 20 scores as a sparkline, oldest first.

The verdict is \`evals stats\`' at confidence ${HISTORY.defaultConfidence}: shifted when the group's runs changed level (a file that holds two levels: its sd is wide, and a drop back to the old level could pass), flaky when more of its finished runs failed than a failure rate of ${VERDICT.flakyRate * 100} % explains (never for a file of version 1, which records no failed runs), too-few with fewer than ${2 * VERDICT.minSegment} runs, else stable. On a terminal each shift is described under the table.

Piped: agent, model, runs, mean, sd, the newest run's createdAt and the runs set aside, then the verdict and the shift's run ID, createdAt, level before, level after and delta (empty unless shifted), tab-separated. --json prints the file with "path" and each group's "newestRunAt", "verdict" and "shift" ({runId, createdAt, before, after, delta}, null unless shifted).

A file that is not valid (not JSON, another version, a score outside 0–1, a run listed twice, a mean or sd that is not its runs', a member amctl does not know) is exit 2 naming the file and what is wrong, here as everywhere the file is read.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> checkout-baseline.json',
    "<%= config.bin %> <%= command.id %> search-baseline.json --jq '.groups[] | [.agent, .model, .mean, .sd] | @tsv'",
    {
      description: 'The groups whose runs changed level, and where',
      command:
        '<%= config.bin %> <%= command.id %> search-baseline.json --jq \'.groups[] | select(.verdict == "shifted") | [.agent, .model, .shift.runId, .shift.delta] | @tsv\'',
    },
  ]

  static override args = {path: Args.string({description: 'the baseline file', required: true})}

  async run(): Promise<BaselineFileDocument> {
    const {args} = await this.parse(EvalsBaselineShow)
    const {file} = readBaselineFile(args.path, this.clock.wall())
    const document = baselineDocument(file, args.path, {confidence: HISTORY.defaultConfidence, ...(await loadVerdictDistributions())})
    if (this.out.tty) {
      const saved = `saved ${document.savedAt} (${relativeTime(document.savedAt, this.clock.wall())})`
      this.out.notice(styled(`${document.evalSetId} of ${document.org}: ${saved}, keeps the newest ${document.keep} runs a group`, 'dim'))
    }
    this.out.list(document.groups, BASELINE_FILE_COLUMNS, 'no groups')
    if (this.out.tty) for (const group of document.groups) if (group.shift !== null) this.out.notice(shiftLine(group, group.shift))
    return document
  }
}
