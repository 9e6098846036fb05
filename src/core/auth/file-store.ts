import {closeSync, existsSync, openSync, readFileSync, rmSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {configDir} from '../config.js'
import {AmctlError} from '../errors.js'
import {ensurePrivateDir, writeFileAtomic} from '../fs-atomic.js'

/**
 * The file fallback: `<config dir>/credentials.json`, mode 0600 in a 0700 directory, written
 * atomically under a short lock so that concurrent logins never lose each other's entries.
 */

interface Entry {
  token: string
  storedAt: string
}
interface FileShape {
  version: 1
  tokens: Record<string, Entry>
}

const LOCK_WAIT_MS = 5000
const LOCK_STALE_MS = 10_000

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'credentials.json')
}

function read(file: string): FileShape {
  if (!existsSync(file)) return {version: 1, tokens: {}}
  let parsed: Partial<FileShape>
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<FileShape>
  } catch (error) {
    throw new AmctlError(`${file} is not valid JSON (${(error as Error).message}); fix or delete it`, {code: 'invalid_config', exitCode: 1})
  }
  // any other shape (null, an array, a string …) holds no tokens
  const tokens = (parsed as Partial<FileShape> | null)?.tokens
  return {version: 1, tokens: tokens && typeof tokens === 'object' && !Array.isArray(tokens) ? tokens : {}}
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Runs `change` on the file's content under an exclusive lock file, then writes it atomically. */
function update(file: string, change: (shape: FileShape) => void): void {
  ensurePrivateDir(join(file, '..'))
  const lock = `${file}.lock`
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, {force: true})
      } catch {
        // the holder just released it
      }
      if (Date.now() > deadline) throw new AmctlError(`${lock} is held by another amctl process`, {code: 'locked', exitCode: 1})
      sleepSync(20)
    }
  }
  try {
    const shape = read(file)
    change(shape)
    writeFileAtomic(file, `${JSON.stringify(shape, null, 2)}\n`, 0o600)
  } finally {
    rmSync(lock, {force: true})
  }
}

export const fileStore = {
  path: credentialsPath,
  get(account: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
    return read(credentialsPath(env)).tokens[account]?.token
  },
  set(account: string, token: string, env: NodeJS.ProcessEnv = process.env): void {
    update(credentialsPath(env), (shape) => {
      shape.tokens[account] = {token, storedAt: new Date().toISOString()}
    })
  },
  /** Returns whether an entry was removed. */
  delete(account: string, env: NodeJS.ProcessEnv = process.env): boolean {
    const file = credentialsPath(env)
    if (!existsSync(file) || !(account in read(file).tokens)) return false
    update(file, (shape) => {
      delete shape.tokens[account]
    })
    return true
  },
}
