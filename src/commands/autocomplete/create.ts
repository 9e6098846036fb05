import {BaseCommand} from '../../base/base-command.js'
import {writeLegacySetup} from './shared/setup.js'
import type {OperationId} from '../../contract/routes.js'

/** What `amctl autocomplete --refresh-cache` does, as a command of its own (hidden, as it was). */
export default class AutocompleteCreate extends BaseCommand {
  static override hidden = true
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Write the completion scripts where setups of earlier versions load them'
  static override description =
    'Setups made by earlier versions of amctl source completion files from the cache directory (<cache>/autocomplete/). This writes the current scripts there, so such a setup keeps working.'

  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> autocomplete --refresh-cache']

  async run(): Promise<{written: string[]}> {
    await this.parse(AutocompleteCreate)
    const written = writeLegacySetup(this.env)
    for (const file of written) this.out.notice(`wrote ${file}`)
    return {written}
  }
}
