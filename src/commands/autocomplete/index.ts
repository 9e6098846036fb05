// @oclif/plugin-autocomplete's commands are its internals: the package exports none, so they are
// imported by file (the exact version is pinned in package.json; test/bin/startup.test.ts checks it).
import Autocomplete from '../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js'

/** oclif's autocomplete command, in the bundle rather than loaded as a plugin at every start. */
export default class AutocompleteIndex extends Autocomplete {
  static override summary = 'Display autocomplete installation instructions.'
  // (the summary says it all: no DESCRIPTION section repeating it)
  static override description = ''
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> bash',
    '<%= config.bin %> <%= command.id %> zsh',
    '<%= config.bin %> <%= command.id %> powershell',
    '<%= config.bin %> <%= command.id %> --refresh-cache',
  ]
}
