/**
 * The OS keychain through the keytar API of `@napi-rs/keyring` (contract 1.3): prebuilt native
 * modules for every platform, no install script (keytar itself is archived upstream, and current
 * npm blocks its install script). It is imported only when a command needs a token; every call
 * has a 3 s limit; any failure — the package missing, no Secret Service or D-Bus, a locked
 * keyring, a timeout — means "keychain unavailable", never a crash. `AMCTL_KEYCHAIN=off` skips it.
 *
 * The three keytar calls are made as `@napi-rs/keyring/keytar` makes them (an AsyncEntry per
 * call), with one difference: on Linux the entry is pinned to the Secret Service. keytar's
 * automatic choice there falls back, silently, to the kernel's keyring when no Secret Service
 * answers, which keeps the token in memory only (gone at the next reboot); contract 1.3 wants
 * the file fallback then, and a pinned entry refuses instead, so amctl falls back to the file.
 *
 * On Linux the session bus is asked to answer first (./session-bus.ts): the module connects to it
 * synchronously, so a bus that accepts and never answers, or stalls anywhere in the handshake,
 * would hold amctl for ever. The 3 s of the first call cover that question (the connection, the
 * whole handshake, Hello and the Secret Service's first answer) and the module's call after it;
 * a bus address amctl cannot ask first (`unixexec:`, `nonce-tcp:`) counts as no keychain.
 */

import {UsageError} from '../errors.js'
import {busAnswers, sessionBusEndpoint, sessionBusReachable} from './session-bus.js'

export const KEYCHAIN_SERVICE = 'amctl'
export const KEYCHAIN_TIMEOUT_MS = 3000

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export class KeychainUnavailable extends Error {
  override name = 'KeychainUnavailable'
}

/**
 * The keychain module, loaded (and on Linux the session bus asked) once per environment: a run has
 * one, the command's (src/base/world.ts), so a bus that never answers is waited for once.
 */
const loads = new WeakMap<NodeJS.ProcessEnv, Promise<Keytar>>()
let timedOut = false

/** True when a keychain call was abandoned at its time limit (the native call may still be pending). */
export function keychainTimedOut(): boolean {
  return timedOut
}

/** What AMCTL_KEYCHAIN may say: `auto` (the default, also when empty or unset) or `off`. */
export const KEYCHAIN_MODES = ['auto', 'off'] as const

/** AMCTL_KEYCHAIN, checked: any other value exits 2 naming the accepted ones. */
export function keychainMode(env: NodeJS.ProcessEnv): (typeof KEYCHAIN_MODES)[number] {
  const value = env.AMCTL_KEYCHAIN ?? ''
  if (value === '' || value === 'auto') return 'auto'
  if (value === 'off') return 'off'
  throw new UsageError(
    `AMCTL_KEYCHAIN must be "auto" (the OS keychain when one answers, else the file) or "off" (never the keychain), got ${JSON.stringify(value)}`,
  )
}

function load(env: NodeJS.ProcessEnv): Promise<Keytar> {
  let loaded = loads.get(env)
  loaded ??= (async () => {
    if (keychainMode(env) === 'off') throw new KeychainUnavailable('disabled by AMCTL_KEYCHAIN=off')
    if (process.platform === 'linux') {
      if (!sessionBusReachable(env)) {
        throw new KeychainUnavailable('no D-Bus session bus, so no Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)')
      }
      const endpoint = sessionBusEndpoint(env)
      // a bus amctl cannot ask first would be asked by the module alone, on this thread, unbounded
      if (endpoint === undefined) {
        const address = (env.DBUS_SESSION_BUS_ADDRESS ?? '').split(';')[0] ?? ''
        throw new KeychainUnavailable(
          `the D-Bus session bus address ${JSON.stringify(address.slice(0, 60))} is one amctl cannot check first (it takes unix:path=, unix:abstract= and tcp:)`,
        )
      }
      await busAnswers(endpoint, KEYCHAIN_TIMEOUT_MS).catch((error: Error) => {
        throw new KeychainUnavailable(error.message)
      })
    }
    try {
      const {AsyncEntry} = await import('@napi-rs/keyring')
      const options = process.platform === 'linux' ? {linux: {store: 'secret-service' as const}} : undefined
      const entry = (service: string, account: string) => new AsyncEntry(service, account, options)
      return {
        getPassword: (service, account) =>
          entry(service, account)
            .getPassword()
            .then((found) => found ?? null),
        setPassword: (service, account, password) => entry(service, account).setPassword(password),
        deletePassword: (service, account) => entry(service, account).deletePassword(),
      }
    } catch (error) {
      throw new KeychainUnavailable(`the keychain module could not be loaded (${(error as Error).message.split('\n')[0]})`)
    }
  })()
  loads.set(env, loaded)
  return loaded
}

async function call<T>(what: string, env: NodeJS.ProcessEnv, run: (keytar: Keytar) => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true
      reject(new KeychainUnavailable(`the keychain did not answer ${what} within ${KEYCHAIN_TIMEOUT_MS / 1000} s`))
    }, KEYCHAIN_TIMEOUT_MS)
  })
  try {
    // the limit covers loading: on Linux that is where the session bus is asked to answer
    return await Promise.race([load(env).then(run), limit])
  } catch (error) {
    if (error instanceof KeychainUnavailable || error instanceof UsageError) throw error
    throw new KeychainUnavailable(`the keychain refused ${what} (${String((error as Error)?.message ?? error).split('\n')[0]})`)
  } finally {
    clearTimeout(timer)
  }
}

/** The keychain's three calls; `env` is the run's environment (AMCTL_KEYCHAIN, the session bus's address). */
export const keychain = {
  get: (account: string, env: NodeJS.ProcessEnv) => call('a read', env, (k) => k.getPassword(KEYCHAIN_SERVICE, account)),
  set: (account: string, token: string, env: NodeJS.ProcessEnv) =>
    call('a write', env, (k) => k.setPassword(KEYCHAIN_SERVICE, account, token)),
  delete: (account: string, env: NodeJS.ProcessEnv) => call('a delete', env, (k) => k.deletePassword(KEYCHAIN_SERVICE, account)),
}
