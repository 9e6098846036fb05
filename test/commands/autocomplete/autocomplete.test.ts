import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import AutocompleteCreate from '../../../src/commands/autocomplete/create.js'
import AutocompleteIndex from '../../../src/commands/autocomplete/index.js'
import AutocompleteScript from '../../../src/commands/autocomplete/script.js'
import {completionScript, SHELLS} from '../../../src/commands/autocomplete/shared/scripts.js'
import {runCommand} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'

describe('autocomplete [SHELL]', () => {
  it('says how to install the script in each shell, on stdout', async () => {
    const bash = await runCommand(AutocompleteIndex, ['bash'])
    expect(bash.exitCode).toBe(0)
    expect(bash.stdout).toContain(`  echo 'eval "$(amctl autocomplete script bash)"' >> ~/.bashrc\n`)
    expect(bash.stdout).toContain('no request is sent')
    expect((await runCommand(AutocompleteIndex, ['zsh'])).stdout).toContain('  amctl autocomplete script zsh > ~/.zsh/completions/_amctl\n')
    expect((await runCommand(AutocompleteIndex, ['fish'])).stdout).toContain(
      '  amctl autocomplete script fish > ~/.config/fish/completions/amctl.fish\n',
    )
    expect((await runCommand(AutocompleteIndex, ['powershell'])).stdout).toContain('amctl autocomplete script powershell | Out-File')
    const json = await runCommand(AutocompleteIndex, ['fish', '--json'])
    expect(JSON.parse(json.stdout)).toEqual({
      shell: 'fish',
      steps: ['mkdir -p ~/.config/fish/completions', 'amctl autocomplete script fish > ~/.config/fish/completions/amctl.fish'],
    })
  })

  it('an unknown shell exits 2 naming the four', async () => {
    const r = await runCommand(AutocompleteIndex, ['tcsh'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: .*tcsh.*bash, zsh, fish, powershell/)
  })

  it('--refresh-cache writes the scripts where setups of earlier versions source them, and says where', async () => {
    const cache = tempDir('amctl-ac-cache-')
    const r = await runCommand(AutocompleteIndex, ['--refresh-cache'], {env: {AMCTL_CACHE_DIR: cache}})
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    const bashSetup = join(cache, 'autocomplete', 'bash_setup')
    expect(r.stderr).toContain(`wrote ${bashSetup}\n`)
    expect(readFileSync(bashSetup, 'utf8')).toBe(completionScript('bash'))
    expect(statSync(bashSetup).mode & 0o777).toBe(0o644)
    expect(readFileSync(join(cache, 'autocomplete', 'zsh_setup'), 'utf8')).toBe(
      `fpath=(${join(cache, 'autocomplete', 'functions', 'zsh')} $fpath)\nautoload -Uz compinit\ncompinit\n`,
    )
    expect(readFileSync(join(cache, 'autocomplete', 'functions', 'zsh', '_amctl'), 'utf8')).toBe(completionScript('zsh'))
    expect(readFileSync(join(cache, 'autocomplete', 'functions', 'powershell', 'amctl.ps1'), 'utf8')).toBe(completionScript('powershell'))
    const create = await runCommand(AutocompleteCreate, ['--json'], {env: {AMCTL_CACHE_DIR: cache}})
    expect(JSON.parse(create.stdout).written).toContain(bashSetup)
  })
})

describe('autocomplete script SHELL', () => {
  it('prints the script as it is (piped or on a terminal), and in --json', async () => {
    for (const shell of SHELLS) {
      for (const tty of [false, true]) expect((await runCommand(AutocompleteScript, [shell], {tty})).stdout).toBe(completionScript(shell))
    }
    expect(JSON.parse((await runCommand(AutocompleteScript, ['zsh', '--json'])).stdout)).toEqual({
      shell: 'zsh',
      script: completionScript('zsh'),
    })
    const none = await runCommand(AutocompleteScript, [])
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toContain('missing argument SHELL')
  })

  it('PowerShell: a native argument completer that sends the words on stdin (an empty one survives)', () => {
    const script = completionScript('powershell')
    expect(script).toContain('Register-ArgumentCompleter -Native -CommandName amctl -ScriptBlock')
    expect(script).toContain('$words | amctl __complete-v2-stdin')
  })
})
