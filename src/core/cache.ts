import {homedir} from 'node:os'
import {join} from 'node:path'

/**
 * The user's cache directory for amctl: AMCTL_CACHE_DIR, else ~/Library/Caches/amctl on macOS,
 * else $XDG_CACHE_HOME/amctl, %LOCALAPPDATA%\amctl on Windows, ~/.cache/amctl. The launcher
 * finds the same directory its own way, before any of this is loaded (bin/launcher.cjs's
 * cacheDir; test/core/cache.test.ts holds the two to the same answers). Everything in it can be
 * deleted at any time.
 */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.AMCTL_CACHE_DIR) return env.AMCTL_CACHE_DIR
  const home = env.HOME || env.USERPROFILE || homedir()
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'amctl')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(home, '.cache')
  return join(base, 'amctl')
}
