import {createRequire} from 'node:module'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {cacheDir} from '../../src/core/cache.js'

// the launcher finds the cache directory before the bundle loads (bin/launcher.cjs): both must agree
const launcher = createRequire(import.meta.url)('../../bin/launcher.cjs') as {cacheDir(env: NodeJS.ProcessEnv): string}
const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform')!
const onPlatform = (platform: NodeJS.Platform) => Object.defineProperty(process, 'platform', {...realPlatform, value: platform})
afterEach(() => Object.defineProperty(process, 'platform', realPlatform))

describe('cacheDir', () => {
  const home = '/home/ada'
  it.each([
    ['linux', {HOME: home}, join(home, '.cache', 'amctl')],
    ['linux', {HOME: home, XDG_CACHE_HOME: '/xdg'}, join('/xdg', 'amctl')],
    ['linux', {HOME: home, AMCTL_CACHE_DIR: '/own'}, '/own'],
    ['darwin', {HOME: home, XDG_CACHE_HOME: '/xdg'}, join(home, 'Library', 'Caches', 'amctl')],
    ['win32', {USERPROFILE: 'C:/Users/ada', LOCALAPPDATA: 'C:/Users/ada/AppData/Local'}, join('C:/Users/ada/AppData/Local', 'amctl')],
    ['win32', {USERPROFILE: 'C:/Users/ada'}, join('C:/Users/ada', '.cache', 'amctl')],
  ] as const)('on %s with %j: %s, as the launcher finds it', (platform, env, expected) => {
    onPlatform(platform)
    expect(cacheDir(env)).toBe(expected)
    expect(launcher.cacheDir(env)).toBe(expected)
  })
})
