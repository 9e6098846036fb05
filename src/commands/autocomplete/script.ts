// @oclif/plugin-autocomplete's internals: see ./index.ts
import Script from '../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js'

/** Prints the line a shell's profile sources for completion (used by the setup, hidden). */
export default class AutocompleteScript extends Script {
  static override summary = 'Output the autocomplete setup script for a shell'
  // (the summary says it all: no DESCRIPTION section repeating it)
  static override description = ''
  static override examples = ['<%= config.bin %> autocomplete script bash', '<%= config.bin %> autocomplete script zsh']
}
