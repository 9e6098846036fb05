/**
 * The D-Bus session bus, where Linux keeps its keychain (the Secret Service): found as libdbus
 * finds it, and asked to answer before the keychain module is.
 *
 * Why amctl speaks to the bus itself: `@napi-rs/keyring` connects to the bus and makes the
 * authentication handshake synchronously, in the constructor of an entry, on amctl's main thread.
 * A bus that accepts the connection and never answers held amctl there for ever, deaf to the 3 s
 * limit of a keychain call and to Ctrl-C. No library does this one step, and the alternatives cost
 * more than it: a worker thread stuck in native code keeps the process from exiting, and a helper
 * process for every keychain call added ~150 ms (a second Node start) to every command that reads
 * a stored token on a desktop. So amctl connects first, without blocking, makes the handshake's
 * opening exchange (the D-Bus specification's "AUTH EXTERNAL", one line each way, about a
 * millisecond) and hangs up; only a bus that answered is handed to the keychain module.
 */
import {statSync} from 'node:fs'
import type {NetConnectOpts} from 'node:net'
import {join} from 'node:path'

/**
 * Whether a D-Bus session bus can be found as libdbus looks for one: DBUS_SESSION_BUS_ADDRESS, else
 * the socket `$XDG_RUNTIME_DIR/bus` (X11 autolaunch is compiled out of the keychain module). On
 * Linux the keychain is the Secret Service, on that bus: without one, amctl knows the keychain is
 * unavailable without loading the native module (a few ms of every command that needs a token,
 * on CI machines and containers).
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
 * Where libdbus would connect first, for node:net: the first address of DBUS_SESSION_BUS_ADDRESS
 * (`unix:path=…`, `unix:abstract=…` or `tcp:host=…,port=…`; values %-escaped as the D-Bus
 * specification has them), else `$XDG_RUNTIME_DIR/bus`. Undefined for a transport node:net cannot
 * open (`unixexec:`, `nonce-tcp:`, `launchd:`): such a bus is not asked first.
 */
export function sessionBusEndpoint(env: NodeJS.ProcessEnv): NetConnectOpts | undefined {
  const address = env.DBUS_SESSION_BUS_ADDRESS
  if (!address) return env.XDG_RUNTIME_DIR ? {path: join(env.XDG_RUNTIME_DIR, 'bus')} : undefined
  const first = address.split(';')[0] ?? ''
  const colon = first.indexOf(':')
  const transport = first.slice(0, colon)
  const keys = new Map<string, string>()
  for (const pair of first.slice(colon + 1).split(',')) {
    const equals = pair.indexOf('=')
    if (equals <= 0) continue
    try {
      keys.set(pair.slice(0, equals), decodeURIComponent(pair.slice(equals + 1)))
    } catch {
      return undefined
    }
  }
  if (transport === 'unix') {
    const path = keys.get('path')
    if (path !== undefined) return {path}
    const abstract = keys.get('abstract')
    // Linux's abstract namespace: node:net takes the name after a NUL byte
    if (abstract !== undefined) return {path: `\0${abstract}`}
    return undefined
  }
  if (transport === 'tcp') {
    const port = Number(keys.get('port'))
    if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined
    return {host: keys.get('host') ?? 'localhost', port}
  }
  return undefined
}

/**
 * Resolves when the bus at `endpoint` answers the first line of the authentication handshake
 * (`OK …` or `REJECTED …`: either is a bus that answers) within `ms`; rejects, naming why, when it
 * cannot be reached, hangs up or stays silent. The connection is closed either way.
 */
export async function busAnswers(endpoint: NetConnectOpts, ms: number): Promise<void> {
  // node:net only here: a command that needs no keychain (config list) does not load it (test/bin/launcher.test.ts)
  const {connect} = await import('node:net')
  return new Promise<void>((resolve, reject) => {
    const socket = connect(endpoint)
    let heard = ''
    const done = (error?: string): void => {
      clearTimeout(timer)
      socket.destroy()
      if (error === undefined) resolve()
      else reject(new Error(error))
    }
    const timer = setTimeout(() => done(`the D-Bus session bus did not answer within ${ms / 1000} s`), ms)
    socket.setEncoding('latin1')
    socket.on('connect', () => {
      const uid = String(process.getuid?.() ?? 0)
      socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid).toString('hex')}\r\n`)
    })
    socket.on('data', (chunk: string) => {
      heard += chunk
      if (heard.includes('\r\n')) done()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => done(`the D-Bus session bus cannot be reached (${error.code ?? error.message})`))
    socket.on('close', () => done('the D-Bus session bus hung up'))
  })
}
