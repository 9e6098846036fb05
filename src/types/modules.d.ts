// Types for modules that ship none.

// marked-man ships no types: a marked extension (options, renderer and tokenizer overrides)
declare module 'marked-man' {
  import type {MarkedExtension} from 'marked'
  const markedMan: MarkedExtension & Record<string, unknown>
  export default markedMan
}

// @oclif/plugin-autocomplete's commands, which the package does not export (src/commands/autocomplete/)
declare module '@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js' {
  import {Command} from '@oclif/core'
  export default class Index extends Command {
    run(): Promise<void>
  }
}

declare module '@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js' {
  import {Command} from '@oclif/core'
  export default class Create extends Command {
    run(): Promise<void>
  }
}

declare module '@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js' {
  import {Command} from '@oclif/core'
  export default class Script extends Command {
    run(): Promise<void>
  }
}
