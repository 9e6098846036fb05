import {commands} from '@oclif/plugin-help'
import type {OperationId} from '../contract/routes.js'

/**
 * oclif's help command (@oclif/plugin-help), in the bundle with amctl's own commands rather than
 * loaded as a plugin at every start (bin/launcher.cjs). It draws through amctl's help class.
 */
export default class Help extends commands.help {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Display help for amctl, a topic, a help topic or a command'
  // (the summary says it all: no DESCRIPTION section repeating it)
  static override description = ''
  static override examples = [
    '<%= config.bin %> <%= command.id %> runs',
    '<%= config.bin %> <%= command.id %> runs list',
    '<%= config.bin %> <%= command.id %> exit-codes',
  ]
}
