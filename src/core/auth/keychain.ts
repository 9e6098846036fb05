/**
 * The OS keychain through the keytar API of `@napi-rs/keyring` (contract 1.3): prebuilt native
 * modules for every platform, no install script (keytar itself is archived upstream, and current
 * npm blocks its install script). It is used only when a command needs a token; every call has a
 * 3 s limit; any failure — the package missing, no Secret Service or D-Bus, a locked keyring, a
 * timeout — means "keychain unavailable", never a crash. `AMCTL_KEYCHAIN=off` skips it.
 *
 * The calls run in a helper process (./keychain-helper.cjs), started with the first call and
 * killed at the first call that runs out of time, or when amctl exits: on Linux the keychain
 * module connects to D-Bus, and makes the handshake, synchronously, so a bus that accepts and
 * never answers held amctl itself for ever, deaf to the limit and to Ctrl-C. The limit covers the
 * connection, the handshake and the call; starting the helper (Node and the native module, no
 * D-Bus yet) has a limit of its own.
 */
import type {ChildProcess} from 'node:child_process'
import {statSync} from 'node:fs'
import {join} from 'node:path'
import {UsageError} from '../errors.js'

export const KEYCHAIN_SERVICE = 'amctl'
export const KEYCHAIN_TIMEOUT_MS = 3000

export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export class KeychainUnavailable extends Error {
  override name = 'KeychainUnavailable'
}

/** What AMCTL_KEYCHAIN may say: `auto` (the default, also when empty or unset) or `off`. */
export const KEYCHAIN_MODES = ['auto', 'off'] as const

/** AMCTL_KEYCHAIN, checked: any other value exits 2 naming the accepted ones. */
export function keychainMode(env: NodeJS.ProcessEnv = process.env): (typeof KEYCHAIN_MODES)[number] {
  const value = env.AMCTL_KEYCHAIN ?? ''
  if (value === '' || value === 'auto') return 'auto'
  if (value === 'off') return 'off'
  throw new UsageError(
    `AMCTL_KEYCHAIN must be "auto" (the OS keychain when one answers, else the file) or "off" (never the keychain), got ${JSON.stringify(value)}`,
  )
}

/** How long the helper may take to start (Node and the native module: no D-Bus call yet). */
const HELPER_START_MS = 15_000

let backend: (() => Promise<Keytar>) | undefined
let loaded: Promise<Keytar> | undefined

/** For tests: the keychain behind the three calls (undefined: the helper process again). */
export function setKeychainBackend(make: (() => Promise<Keytar>) | undefined): void {
  backend = make
  loaded = undefined
}

function load(): Promise<Keytar> {
  loaded ??= (async () => {
    if (keychainMode(process.env) === 'off') throw new KeychainUnavailable('disabled by AMCTL_KEYCHAIN=off')
    if (process.platform === 'linux' && !sessionBusReachable(process.env)) {
      throw new KeychainUnavailable('no D-Bus session bus, so no Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)')
    }
    return (backend ?? (() => helperKeytar()))()
  })()
  return loaded
}

/**
 * Whether a D-Bus session bus can be found as libdbus looks for one: DBUS_SESSION_BUS_ADDRESS, else
 * the socket `$XDG_RUNTIME_DIR/bus` (X11 autolaunch is compiled out of the keychain module). On
 * Linux the keychain is the Secret Service, on that bus: without one, amctl knows the keychain is
 * unavailable without starting the helper (a process of every command that needs a token, on CI
 * machines and containers).
 */
export function sessionBusReachable(env: NodeJS.ProcessEnv): boolean {
  if (env.DBUS_SESSION_BUS_ADDRESS) return true
  if (!env.XDG_RUNTIME_DIR) return false
  try {
    return statSync(join(env.XDG_RUNTIME_DIR, 'bus')).isSocket()
  } catch {
    return false
  }
}

/**
 * The keychain in the helper process: this Node (the single executable runs the helper as
 * `amctl __keychain`, bin/run.cjs) with ./keychain-helper.cjs, beside this module in the sources
 * and in dist/. `module` is the keychain module it loads (tests give a stand-in). Every call of
 * the returned keytar rejects when the helper is gone; `ended` rejects them all and kills it.
 */
export async function helperKeytar(opts: {module?: string} = {}): Promise<Keytar & {end(): void}> {
  const {spawn} = await import('node:child_process')
  const {isSea} = await import('node:sea').catch(() => ({isSea: () => false}))
  const args = isSea() ? ['__keychain'] : [join(__dirname, 'keychain-helper.cjs')]
  if (opts.module !== undefined) args.push(opts.module)
  const child: ChildProcess = spawn(process.execPath, args, {stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true})
  const kill = (): void => {
    child.kill('SIGKILL')
  }
  process.once('exit', kill)
  // the helper never keeps amctl alive
  child.unref()
  for (const stream of [child.stdin, child.stdout]) (stream as unknown as {unref?(): void} | null)?.unref?.()
  child.stdin?.on('error', () => {})

  const pending = new Map<number, {resolve(value: unknown): void; reject(error: Error): void}>()
  let gone: string | undefined
  const end = (why: string): void => {
    gone ??= why
    for (const {reject} of pending.values()) reject(new KeychainUnavailable(why))
    pending.clear()
    kill()
    process.off('exit', kill)
  }
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new KeychainUnavailable(`the keychain helper did not start within ${HELPER_START_MS / 1000} s`)),
      HELPER_START_MS,
    )
    let buffered = ''
    child.stdout?.setEncoding('utf8')
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, at)) as {ready?: boolean; error?: string; id?: number; value?: unknown}
        buffered = buffered.slice(at + 1)
        if (message.ready !== undefined) {
          clearTimeout(timer)
          if (message.ready) resolve()
          else reject(new KeychainUnavailable(`the keychain module could not be loaded (${message.error})`))
          continue
        }
        const call = pending.get(message.id as number)
        pending.delete(message.id as number)
        if (message.error !== undefined) call?.reject(new Error(message.error))
        else call?.resolve(message.value)
      }
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new KeychainUnavailable(`the keychain helper could not start (${error.message})`))
      end('the keychain helper stopped')
    })
    child.on('exit', () => {
      clearTimeout(timer)
      reject(new KeychainUnavailable('the keychain helper stopped'))
      end('the keychain helper stopped')
    })
  })
  try {
    await ready
  } catch (error) {
    end((error as Error).message)
    throw error
  }
  let ids = 0
  const ask = <T>(op: string, service: string, account: string, password?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gone !== undefined) return reject(new KeychainUnavailable(gone))
      const id = ++ids
      pending.set(id, {resolve: resolve as (value: unknown) => void, reject})
      child.stdin?.write(`${JSON.stringify({id, op, service, account, password})}\n`)
    })
  return {
    getPassword: (service, account) => ask<string | null>('get', service, account),
    setPassword: (service, account, password) => ask<void>('set', service, account, password),
    deletePassword: (service, account) => ask<boolean>('delete', service, account),
    end: () => end('the keychain helper was ended'),
  }
}

/** A keychain that did not answer in time: its helper is ended (nothing of it outlives the limit). */
function abandon(keytar: Keytar): void {
  ;(keytar as Partial<{end(): void}>).end?.()
  loaded = Promise.reject(new KeychainUnavailable('the keychain did not answer an earlier call in time'))
  loaded.catch(() => {})
}

async function call<T>(what: string, run: (keytar: Keytar) => Promise<T>): Promise<T> {
  let keytar: Keytar
  try {
    keytar = await load()
  } catch (error) {
    if (error instanceof KeychainUnavailable || error instanceof UsageError) throw error
    throw new KeychainUnavailable(`the keychain could not be used (${String((error as Error)?.message ?? error).split('\n')[0]})`)
  }
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new KeychainUnavailable(`the keychain did not answer ${what} within ${KEYCHAIN_TIMEOUT_MS / 1000} s`))
      abandon(keytar)
    }, KEYCHAIN_TIMEOUT_MS)
  })
  try {
    return await Promise.race([run(keytar), limit])
  } catch (error) {
    if (error instanceof KeychainUnavailable) throw error
    throw new KeychainUnavailable(`the keychain refused ${what} (${String((error as Error)?.message ?? error).split('\n')[0]})`)
  } finally {
    clearTimeout(timer)
  }
}

export const keychain = {
  get: (account: string) => call('a read', (k) => k.getPassword(KEYCHAIN_SERVICE, account)),
  set: (account: string, token: string) => call('a write', (k) => k.setPassword(KEYCHAIN_SERVICE, account, token)),
  delete: (account: string) => call('a delete', (k) => k.deletePassword(KEYCHAIN_SERVICE, account)),
}
