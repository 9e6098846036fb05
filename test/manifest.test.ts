import {Plugin} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'

// The committed oclif.manifest.json is what `amctl` loads at start-up instead of importing every
// command; a stale one hides new commands or flags. Regenerate with `npm run manifest`.
describe('oclif.manifest.json', () => {
  it('matches the commands in the build', async () => {
    const plugin = new Plugin({root: ROOT, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true})
    await plugin.load()
    const committed = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version
    expect(committed.version, 'manifest version; run `npm run manifest`').toBe(version)
    expect(Object.keys(committed.commands).sort(), 'commands; run `npm run manifest`').toEqual(Object.keys(plugin.manifest.commands).sort())
    expect(committed.commands, 'flags/args/help of some command changed; run `npm run manifest`').toEqual(
      JSON.parse(JSON.stringify(plugin.manifest.commands)),
    )
  })
})
