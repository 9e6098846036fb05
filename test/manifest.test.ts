import {Plugin} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

// oclif.manifest.json is what `amctl` loads at start-up instead of importing every command; a
// stale one hides new commands or flags. `npm run build` makes it (bin/build/help.cjs), so after a
// build it describes the commands as src/ has them; it is committed too (readers of the repository
// see the commands), and .ci/run fails when the build changes the committed file.
describe('oclif.manifest.json', () => {
  it('matches the commands in the build', async () => {
    const plugin = new Plugin({root: ROOT, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true})
    await plugin.load()
    const built = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    expect(built.version, 'manifest version; run `npm run build`').toBe(version)
    expect(Object.keys(built.commands).sort(), 'commands; run `npm run build`').toEqual(Object.keys(plugin.manifest.commands).sort())
    expect(built.commands, 'flags/args/help of some command changed; run `npm run build`').toEqual(
      JSON.parse(JSON.stringify(plugin.manifest.commands)),
    )
  })
})
