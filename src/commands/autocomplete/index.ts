import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../base/base-command.js'
import {UsageError} from '../../core/errors.js'
import {SHELLS, type Shell} from './shared/scripts.js'
import {writeLegacySetup} from './shared/setup.js'
import type {OperationId} from '../../contract/routes.js'

/** How to install the completion script in each shell: the lines to run, then a note. */
const SETUP: Record<Shell, {steps: string[]; note?: string}> = {
  bash: {
    steps: ['echo \'eval "$(amctl autocomplete script bash)"\' >> ~/.bashrc'],
    note:
      'Or, with the bash-completion package, save the script where it is loaded on first use:\n' +
      '  mkdir -p ~/.local/share/bash-completion/completions\n' +
      '  amctl autocomplete script bash > ~/.local/share/bash-completion/completions/amctl',
  },
  zsh: {
    steps: [
      'mkdir -p ~/.zsh/completions',
      'amctl autocomplete script zsh > ~/.zsh/completions/_amctl',
      "echo 'fpath=(~/.zsh/completions $fpath); autoload -Uz compinit && compinit' >> ~/.zshrc",
    ],
    note: 'If ~/.zshrc already runs compinit, put the fpath line before it instead.',
  },
  fish: {steps: ['mkdir -p ~/.config/fish/completions', 'amctl autocomplete script fish > ~/.config/fish/completions/amctl.fish']},
  powershell: {
    steps: [
      'amctl autocomplete script powershell | Out-File -Encoding utf8 "$HOME\\amctl-completion.ps1"',
      `Add-Content $PROFILE '. "$HOME\\amctl-completion.ps1"'`,
    ],
  },
}

/** The shell oclif found (SHELL's last segment; on Windows, the one that started amctl), if amctl completes it. */
function shellNamed(name: string | undefined): Shell | undefined {
  const shell = name === 'pwsh' || name === 'powershell.exe' || name === 'pwsh.exe' ? 'powershell' : name
  return (SHELLS as readonly string[]).includes(shell ?? '') ? (shell as Shell) : undefined
}

export default class AutocompleteIndex extends BaseCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Set up shell completion for bash, zsh, fish or PowerShell'
  static override description =
    `Prints how to install the completion script (\`amctl autocomplete script SHELL\`) in your shell; without SHELL, for the shell you use. Completion covers commands, flags and values: organizations, profiles, base URLs, run and eval set IDs amctl listed, launched or watched lately, --status values, config keys. Completing reads only the config and the cache directory: it never sends a request.

--refresh-cache writes the scripts into the cache directory, where setups made by earlier versions of amctl load them from.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> zsh',
    '<%= config.bin %> <%= command.id %> powershell',
  ]

  static override args = {
    shell: Args.string({description: `one of: ${SHELLS.join(', ')} (default: the shell you use)`, options: [...SHELLS]}),
  }

  static override flags = {
    'refresh-cache': Flags.boolean({
      char: 'r',
      description: 'write the scripts where setups of earlier versions load them, and nothing else',
    }),
  }

  async run(): Promise<{shell: Shell; steps: string[]} | {written: string[]}> {
    const {args, flags} = await this.parse(AutocompleteIndex)
    if (flags['refresh-cache']) {
      const written = writeLegacySetup(this.env)
      for (const file of written) this.out.notice(`wrote ${file}`)
      return {written}
    }
    const shell = (args.shell as Shell | undefined) ?? shellNamed(this.config.shell)
    if (shell === undefined) {
      throw new UsageError(`cannot tell which shell you use ("${this.config.shell}"): name it, one of ${SHELLS.join(', ')}`)
    }
    const {steps, note} = SETUP[shell]
    this.out.block(
      [
        `Completion for ${shell}: commands, flags, and the values amctl knows (organizations, profiles, run and eval set IDs it listed lately, statuses).`,
        '',
        `Run ${steps.length === 1 ? 'this' : 'these'} once, then open a new ${shell === 'powershell' ? 'PowerShell' : 'shell'}:`,
        ...steps.map((step) => `  ${step}`),
        ...(note ? ['', note] : []),
        '',
        'The script asks amctl at every Tab (from local files only: no request is sent), so it never needs regenerating after an upgrade.',
      ].join('\n'),
    )
    return {shell, steps}
  }
}
