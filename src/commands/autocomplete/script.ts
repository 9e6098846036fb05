import {Args} from '@oclif/core'
import {BaseCommand} from '../../base/base-command.js'
import {completionScript, SHELLS, type Shell} from './shared/scripts.js'
import type {OperationId} from '../../contract/routes.js'

export default class AutocompleteScript extends BaseCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Print the completion script for a shell'
  static override description =
    `Completes commands, flags and values: organizations (the profiles' and those used lately), profiles, base URLs, run and eval set IDs amctl listed, launched or watched lately, --status values, config keys. The values come from the config and the cache directory; completing never sends a request. The script asks amctl at every Tab, so it never needs regenerating after an upgrade. \`amctl autocomplete SHELL\` says where to put it.`

  static override examples = [
    {description: 'In ~/.bashrc: load it in every bash', command: 'eval "$(<%= config.bin %> <%= command.id %> bash)"'},
    {
      description: 'Install it for fish',
      command: 'mkdir -p ~/.config/fish/completions && <%= config.bin %> <%= command.id %> fish > ~/.config/fish/completions/amctl.fish',
    },
  ]

  static override args = {shell: Args.string({description: `one of: ${SHELLS.join(', ')}`, options: [...SHELLS], required: true})}

  async run(): Promise<{shell: Shell; script: string}> {
    const {args} = await this.parse(AutocompleteScript)
    const shell = args.shell as Shell
    const script = completionScript(shell)
    if (!this.jsonEnabled()) this.io.stdout.write(script)
    return {shell, script}
  }
}
