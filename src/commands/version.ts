import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {BaseCommand} from '../base/base-command.js'
import type {OperationId} from '../contract/routes.js'

export interface VersionResult {
  version: string
  platform: string
  arch: string
  node: string
  /** the commit it was built from, and that commit's date, when built from a git checkout */
  commit?: string
  date?: string
}

/**
 * `amctl version`, as gh has it: what `amctl --version` prints (bin/run.cjs answers both without
 * loading the CLI; this command answers `version --json` and `version --help`).
 */
export default class Version extends BaseCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Print the version of amctl, as --version does'
  static override description =
    'The first line, `amctl/<version> <platform>-<arch> node-<version>`, is what scripts parse; when built from a git checkout a second line names the commit and its date. --json prints them as members.'

  static override examples = ['<%= config.bin %> <%= command.id %>', "<%= config.bin %> <%= command.id %> --jq '.version'"]

  async run(): Promise<VersionResult> {
    await this.parse(Version)
    const result: VersionResult = {version: this.config.version, platform: process.platform, arch: process.arch, node: process.version}
    try {
      const {commit, date} = JSON.parse(readFileSync(join(this.config.root, 'dist', 'build-info.json'), 'utf8')) as {
        commit: string
        date: string
      }
      Object.assign(result, {commit, date})
    } catch {
      // not built from a git checkout
    }
    const built = result.commit ? `commit ${result.commit}, ${result.date}\n` : ''
    this.out.block(`amctl/${result.version} ${result.platform}-${result.arch} node-${result.node}\n${built}`)
    return result
  }
}
