// @oclif/plugin-autocomplete's commands are its internals (the package exports none): the bundle
// resolves this path through bin/startup.cjs (exact version pin), Node alone does not.
import Autocomplete from '@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js'

/** oclif's autocomplete command, in the bundle rather than loaded as a plugin at every start. */
export default class AutocompleteIndex extends Autocomplete {
  static override summary = 'Display autocomplete installation instructions.'
  // (the summary says it all: no DESCRIPTION section repeating it)
  static override description = ''
}
