import {Args} from '@oclif/core'
import {BaseCommand} from '../../base/base-command.js'
import type {OperationId} from '../../contract/routes.js'
import {docsUrl} from '../../gate/report.js'
import {reportedResultOf} from '../../gate/reported.js'
import {markdownSummary} from '../../gate/reports/markdown.js'
import {readText} from '../../input/files.js'

/** --json: the comment's Markdown body. */
export interface CommentDocument {
  body: string
}

export default class EvalsComment extends BaseCommand {
  /** it reads a file: no request */
  static operations: OperationId[] = []
  static override summary = 'Print the pull-request comment of a wait from its --json document'
  static override description =
    `Prints, as Markdown, the body the GitHub Action posts on a pull request for a wait (its job summary and --summary are the same text), made from the --json document of \`evals run --wait\` or \`runs watch\` (its "gate" member) in FILE, or on standard input for -. No request is made: what the step judged is in the document.

The comment's headline names what failed and by how much, the worst first; one table of at most five columns (group or run, score, baseline, Δ, verdict) fits a comment's width; a line for each failing verdict says what to do (the runs to look at, the command that refreshes the baseline); every other figure, each group's runs and the method are in a collapsed part. AMCTL_DOCS_URL, an http(s) URL of amctl's docs/ folder, makes the method's mention of docs/ci.md a link (the Action sets its own release's).

A document that is not a wait's (another command's, cut short, or edited so that its "gate" no longer matches the result's schema) is exit 2 naming what is wrong. --json prints {"body"}.`

  static override examples = [
    {
      description: 'See the comment a step would post, before pushing',
      command:
        '<%= config.bin %> evals run es_acme_search --org acme --wait --baseline-file search-baseline.json --json > step.json; <%= config.bin %> <%= command.id %> step.json',
    },
    '<%= config.bin %> runs watch run_acme_0257 --org acme --baseline history --json | <%= config.bin %> <%= command.id %> -',
  ]

  static override args = {
    file: Args.string({description: 'the --json document of a wait (evals run --wait, runs watch); - reads stdin', required: true}),
  }

  async run(): Promise<CommentDocument> {
    const {args} = await this.parse(EvalsComment)
    const label = args.file === '-' ? 'FILE - (standard input)' : `FILE ${args.file}`
    if (args.file === '-' && this.io.stdinIsTTY) this.out.notice('Paste the --json document of the wait, then press Ctrl-D:')
    const result = await reportedResultOf(await readText(args.file, this.io.stdin, 'FILE'), label)
    const body = markdownSummary(result, {docsUrl: docsUrl(this.env)})
    this.out.block(body)
    return {body}
  }
}
