import {dirname, join} from 'node:path'
import {cacheDir} from '../../../core/cache.js'
import {ensurePrivateDir, fileSystemError, writeFileAtomic} from '../../../core/fs-atomic.js'
import {legacySetupFiles} from './scripts.js'

/** Writes the setup files of earlier versions (legacySetupFiles) into the cache directory; returns their paths. */
export function writeLegacySetup(env: NodeJS.ProcessEnv): string[] {
  const cache = cacheDir(env)
  return Object.entries(legacySetupFiles(cache)).map(([relative, content]) => {
    const file = join(cache, relative)
    ensurePrivateDir(dirname(file))
    try {
      writeFileAtomic(file, content, 0o644)
    } catch (error) {
      throw fileSystemError('write', file, error)
    }
    return file
  })
}
