import {createRequire} from 'node:module'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {onPlatform, PLATFORMS} from '../helpers/platform.js'

// Where the launchers keep their cache on each platform, with process.platform set to each:
// bin/sea.cjs (the single executable writes its files to <cache>/sea/) and bin/launcher.cjs (the
// code cache and the terminal's help, in <cache>/code-cache and <cache>/help) must find the one
// directory oclif's config.cacheDir names (autocomplete's scripts go there): docs/install.md
// lists it per platform.

const require = createRequire(import.meta.url)
const sea = require(join(ROOT, 'bin', 'sea.cjs')) as {cacheDir(env: NodeJS.ProcessEnv): string}
const launcher = require(join(ROOT, 'bin', 'launcher.cjs')) as {cacheDir(env: NodeJS.ProcessEnv): string}

describe("the launchers' cache directory on each platform", () => {
  it.each([
    ['linux', {HOME: '/home/ada'}, '/home/ada/.cache/amctl'],
    ['linux', {HOME: '/home/ada', XDG_CACHE_HOME: '/xdg', LOCALAPPDATA: '/local'}, '/xdg/amctl'],
    ['darwin', {HOME: '/Users/ada', XDG_CACHE_HOME: '/xdg'}, '/Users/ada/Library/Caches/amctl'],
    ['win32', {USERPROFILE: 'C:/Users/ada', LOCALAPPDATA: 'C:/Users/ada/AppData/Local'}, 'C:/Users/ada/AppData/Local/amctl'],
    ['win32', {USERPROFILE: 'C:/Users/ada'}, 'C:/Users/ada/.cache/amctl'],
    ['win32', {USERPROFILE: 'C:/Users/ada', LOCALAPPDATA: 'C:/Users/ada/AppData/Local', XDG_CACHE_HOME: 'D:/xdg'}, 'D:/xdg/amctl'],
  ] as const)('%s %j: %s, for the single executable and the start-up caches alike', (platform, env, dir) => {
    onPlatform(platform, () => {
      expect(sea.cacheDir(env)).toBe(dir)
      expect(launcher.cacheDir(env)).toBe(dir)
    })
  })

  it.each(PLATFORMS)('%s: AMCTL_CACHE_DIR wins', (platform) => {
    onPlatform(platform, () => {
      const env = {HOME: '/h', USERPROFILE: 'C:/h', LOCALAPPDATA: 'C:/l', XDG_CACHE_HOME: '/x', AMCTL_CACHE_DIR: '/mine'}
      expect(sea.cacheDir(env)).toBe('/mine')
      expect(launcher.cacheDir(env)).toBe('/mine')
    })
  })
})
