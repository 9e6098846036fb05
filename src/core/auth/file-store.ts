import {configDir} from '../config.js'
import {dirname, join} from 'node:path'
import {NotLoggedInError} from '../errors.js'
import {
  foreignOwner,
  isJsonObject,
  readJsonFile,
  readJsonFileAndOwner,
  statOrUndefined,
  updateJsonFile,
  wrongShapeError,
} from '../fs-atomic.js'

/**
 * The file fallback: `<config dir>/credentials.json`, mode 0600 (in a directory created 0700),
 * written atomically under a short lock so that concurrent logins never lose each other's
 * entries. A read creates nothing; a file of another shape is an error, never overwritten.
 */

interface Entry {
  token: string
}
interface FileShape {
  version: 1
  tokens: Record<string, Entry>
  [member: string]: unknown
}

export function credentialsPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'credentials.json')
}

function read(file: string, content: unknown = readJsonFile(file)): FileShape {
  if (content === undefined) return {version: 1, tokens: {}}
  if (!isJsonObject(content)) throw wrongShapeError(file, 'expected a JSON object')
  const {version} = content
  if (version !== undefined && version !== 1) throw wrongShapeError(file, `unknown version ${JSON.stringify(version)}`)
  const tokens = content.tokens ?? {}
  if (!isJsonObject(tokens)) throw wrongShapeError(file, '"tokens" must be an object')
  for (const [account, entry] of Object.entries(tokens)) {
    if (!isJsonObject(entry) || typeof entry.token !== 'string') {
      throw wrongShapeError(file, `the entry for ${JSON.stringify(account)} has no token`)
    }
  }
  return {...content, version: 1, tokens: tokens as Record<string, Entry>}
}

function entryOf(shape: FileShape, account: string): Entry | undefined {
  return Object.hasOwn(shape.tokens, account) ? shape.tokens[account] : undefined
}

export const fileStore = {
  path: credentialsPath,
  /**
   * The stored token. One in a file, or a directory, that another user owns is never handed out
   * (exit 3): that user could have put it there, to have amctl send their token, or send yours
   * to a server of theirs (localStateWarnings says so too).
   */
  get(account: string, env: NodeJS.ProcessEnv): string | undefined {
    const file = credentialsPath(env)
    const {value, uid} = readJsonFileAndOwner(file)
    const token = entryOf(read(file, value), account)?.token
    if (token === undefined) return undefined
    const owner = foreignOwner(statOrUndefined(dirname(file))?.uid) ?? foreignOwner(uid)
    if (owner !== undefined) {
      throw new NotLoggedInError(
        `${file} or its directory belongs to another user (uid ${owner}): amctl sends no token stored there; set AMCTL_TOKEN, or log in with a config directory of your own (AMCTL_CONFIG_DIR)`,
      )
    }
    return token
  },
  set(account: string, token: string, env: NodeJS.ProcessEnv): void {
    const entry: Entry = {token}
    updateJsonFile(credentialsPath(env), read, (shape) => ({...shape, tokens: {...shape.tokens, [account]: entry}}))
  },
  /** Returns whether an entry was removed; without one, nothing is written (or created). */
  delete(account: string, env: NodeJS.ProcessEnv): boolean {
    const file = credentialsPath(env)
    if (entryOf(read(file), account) === undefined) return false
    updateJsonFile(file, read, (shape) => {
      const tokens = {...shape.tokens}
      delete tokens[account]
      return {...shape, tokens}
    })
    return true
  },
}
