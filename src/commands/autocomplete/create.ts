// @oclif/plugin-autocomplete's internals: see ./index.ts
import Create from '../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js'

/** Writes the completion scripts `amctl autocomplete` sets up (run by it, hidden). */
export default class AutocompleteCreate extends Create {
  static override summary = 'Create autocomplete setup scripts and completion functions'
  // (the summary says it all: no DESCRIPTION section repeating it)
  static override description = ''
  static override examples = ['<%= config.bin %> autocomplete create', '<%= config.bin %> autocomplete --refresh-cache']
}
