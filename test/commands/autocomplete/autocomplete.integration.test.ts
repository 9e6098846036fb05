import {spawnSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {completionScript} from '../../../src/commands/autocomplete/shared/scripts.js'
import {harness, sealedEnv} from '../../helpers/env.js'
import {tempDir} from '../../helpers/temp.js'

// Each shell's completion script as the shell itself parses it (the shells, programs: the
// integration project; the scripts' content in ./autocomplete.test.ts).

describe('autocomplete script SHELL', () => {
  it.each([
    ['bash', ['bash', '-n']],
    ['zsh', ['zsh', '-n']],
    ['fish', ['fish', '--no-execute']],
  ] as const)('the %s script parses (%j)', (shell, [program, ...args]) => {
    const file = join(tempDir('amctl-ac-script-'), shell)
    writeFileSync(file, completionScript(shell))
    // (TMPDIR in the test's directory: fish keeps a directory of its own there)
    const check = spawnSync(program, [...args, file], {encoding: 'utf8', env: sealedEnv({TMPDIR: dirname(file)})})
    if (check.error && !harness.ci) return // the shell is not installed here (CI installs it: .ci/run)
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })
})
