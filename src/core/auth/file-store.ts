import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {configDir} from '../config.js'
import {corruptFileError} from '../errors.js'
import {ensurePrivateDir, withFileLock, writeFileAtomic} from '../fs-atomic.js'

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

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'credentials.json')
}

function read(file: string): FileShape {
  if (!existsSync(file)) return {version: 1, tokens: {}}
  let parsed: Partial<FileShape>
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<FileShape>
  } catch (error) {
    throw corruptFileError(file, error)
  }
  // any other shape (null, an array, a string …) holds no tokens
  const tokens = (parsed as Partial<FileShape> | null)?.tokens
  return {version: 1, tokens: tokens && typeof tokens === 'object' && !Array.isArray(tokens) ? tokens : {}}
}

/** Runs `change` on the file's content under an exclusive lock file, then writes it atomically. */
function update(file: string, change: (shape: FileShape) => void): void {
  ensurePrivateDir(join(file, '..'))
  withFileLock(file, () => {
    const shape = read(file)
    change(shape)
    writeFileAtomic(file, `${JSON.stringify(shape, null, 2)}\n`, 0o600)
  })
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
