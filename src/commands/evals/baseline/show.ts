import {Args} from '@oclif/core'
import {BaseCommand} from '../../../base/base-command.js'
import type {OperationId} from '../../../contract/routes.js'
import {BASELINE_FILE_COLUMNS, type BaselineFileDocument, baselineDocument, readBaselineFile} from '../../../gate/baseline-file.js'
import {styled} from '../../../output/renderer.js'
import {relativeTime} from '../../../output/time.js'

export default class EvalsBaselineShow extends BaseCommand {
  /** it reads a file: no request */
  static operations: OperationId[] = []
  static override summary = 'Show a baseline file: each agent and model, its runs, mean ± sd, the newest run and a trend'
  static override description =
    `Reads the baseline file at PATH (made by \`evals baseline save\`, judged against by --baseline-file) and shows one row per agent × model: how many runs it holds, their mean and standard deviation, when its newest run was created (how old the baseline is: --baseline-max-age warns past 30d), how many runs were set aside as outliers, and on a terminal the newest 20 scores as a sparkline, oldest first. Piped: agent, model, runs, mean, sd, the newest run's createdAt and the runs set aside, tab-separated. --json prints the file with "path" and each group's "newestRunAt".

A file that is not valid (not JSON, another version, a score outside 0–1, a run listed twice, a mean or sd that is not its runs', a member amctl does not know) is exit 2 naming the file and what is wrong, here as everywhere the file is read.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> checkout-baseline.json',
    "<%= config.bin %> <%= command.id %> search-baseline.json --jq '.groups[] | [.agent, .model, .mean, .sd] | @tsv'",
  ]

  static override args = {path: Args.string({description: 'the baseline file', required: true})}

  async run(): Promise<BaselineFileDocument> {
    const {args} = await this.parse(EvalsBaselineShow)
    const document = baselineDocument(readBaselineFile(args.path, this.clock.wall()).file, args.path)
    if (this.out.tty) {
      const saved = `saved ${document.savedAt} (${relativeTime(document.savedAt, this.clock.wall())})`
      this.out.notice(styled(`${document.evalSetId} of ${document.org}: ${saved}, keeps the newest ${document.keep} runs a group`, 'dim'))
    }
    this.out.list(document.groups, BASELINE_FILE_COLUMNS, 'no groups')
    return document
  }
}
