/**
 * Runs `fn` with `process.platform` set to another platform, as a test on macOS or Windows would
 * see it, then sets it back (also when `fn` throws or rejects). Only what reads
 * `process.platform` changes: node:path stays this machine's, so paths are joined with "/".
 */
export function onPlatform<T>(platform: NodeJS.Platform, fn: () => T): T {
  const own = Object.getOwnPropertyDescriptor(process, 'platform')!
  Object.defineProperty(process, 'platform', {...own, value: platform})
  const restore = () => Object.defineProperty(process, 'platform', own)
  try {
    const result = fn()
    if (result instanceof Promise) return result.finally(restore) as T
    restore()
    return result
  } catch (error) {
    restore()
    throw error
  }
}

export const PLATFORMS = ['linux', 'darwin', 'win32'] as const
