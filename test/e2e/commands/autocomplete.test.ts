import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runBin} from '../../helpers/bin.js'
import {tempDir} from '../../helpers/temp.js'
import {expectOk, jsonDoc} from './util.js'

// Shell completion's own commands from the built CLI (the scripts as shells load them:
// test/e2e/completion.test.ts): the setup instructions, and the files setups of earlier
// versions source.

describe('amctl autocomplete', () => {
  it("prints the shell's setup on stdout; --refresh-cache writes the files setups of earlier versions source", async () => {
    const cache = tempDir('amctl-e2e-cache-')
    const [zsh, refreshed] = await Promise.all([
      runBin(['autocomplete', 'zsh'], {env: {AMCTL_CACHE_DIR: cache}}),
      runBin(['autocomplete', '--refresh-cache'], {env: {AMCTL_CACHE_DIR: cache}}),
    ])
    expectOk(zsh)
    expect(zsh.stdout).toContain('amctl autocomplete script zsh')
    expectOk(refreshed, /^(wrote .+\n)+$/)
    expect(refreshed.stderr).toContain(`wrote ${join(cache, 'autocomplete', 'bash_setup')}\n`)
    expect(readFileSync(join(cache, 'autocomplete', 'bash_setup'), 'utf8')).toContain('amctl')
  })
})

describe('amctl autocomplete create', () => {
  it('writes the same files, and lists them under --json', async () => {
    const cache = tempDir('amctl-e2e-cache-')
    const r = await runBin(['autocomplete', 'create', '--json'], {env: {AMCTL_CACHE_DIR: cache}})
    expectOk(r, /^(wrote .+\n)+$/)
    expect(jsonDoc(r).written).toContain(join(cache, 'autocomplete', 'functions', 'zsh', '_amctl'))
    expect(readFileSync(join(cache, 'autocomplete', 'functions', 'zsh', '_amctl'), 'utf8')).toContain('amctl')
  })
})
