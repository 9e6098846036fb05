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
 *
 * The opening exchange is all of what the module does there before it can be given up: the whole
 * authentication, `Hello`, and the Secret Service's first answer (busAnswers). A bus that answered
 * only the first line of it and then stalled, or answered garbage, held amctl past the limit, deaf
 * to Ctrl-C. An address whose transport node:net cannot open (`unixexec:`, `nonce-tcp:`) cannot be
 * asked first: such a bus counts as no keychain (./keychain.ts).
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

// The D-Bus wire format, as much of it as the check needs: a message's fixed header, its header
// fields (path, interface, member, error name, reply serial, destination) and its length. No
// library is used: the Node ones (dbus-next, dbus-native) bring 100 KB and dependencies for this,
// and authenticate their own way, where the point is to do what libdbus does, step by step.
const METHOD_CALL = 1
const METHOD_RETURN = 2
const ERROR = 3
const FIELD = {path: 1, interface: 2, member: 3, errorName: 4, replySerial: 5, destination: 6} as const

/** A method call with no arguments, little-endian, as libdbus writes it. */
export function dbusCall(serial: number, call: {path: string; interface: string; member: string; destination: string}): Buffer {
  const parts: Buffer[] = []
  let length = 16
  const push = (bytes: Buffer) => {
    parts.push(bytes)
    length += bytes.length
  }
  const align = (to: number) => {
    if (length % to !== 0) push(Buffer.alloc(to - (length % to)))
  }
  const fields: Array<[number, string, string]> = [
    [FIELD.path, 'o', call.path],
    [FIELD.interface, 's', call.interface],
    [FIELD.member, 's', call.member],
    [FIELD.destination, 's', call.destination],
  ]
  for (const [code, type, value] of fields) {
    align(8)
    push(Buffer.from([code, 1, type.charCodeAt(0), 0]))
    const text = Buffer.from(value, 'utf8')
    const size = Buffer.alloc(4)
    size.writeUInt32LE(text.length)
    push(Buffer.concat([size, text, Buffer.from([0])]))
  }
  const fieldsLength = length - 16
  align(8)
  const header = Buffer.alloc(16)
  header.write('l', 0, 'latin1')
  header[1] = METHOD_CALL
  header[3] = 1
  header.writeUInt32LE(0, 4)
  header.writeUInt32LE(serial, 8)
  header.writeUInt32LE(fieldsLength, 12)
  return Buffer.concat([header, ...parts])
}

/** What the check reads of a message. */
export interface DbusMessage {
  type: number
  serial: number
  replySerial?: number
  errorName?: string
  /** the whole message's length in bytes */
  length: number
}

/**
 * The message at the start of `bytes`, or undefined while it is not all there. Throws on bytes
 * that are no D-Bus message (a bus that answers garbage).
 */
export function readDbusMessage(bytes: Buffer): DbusMessage | undefined {
  if (bytes.length === 0) return undefined
  const little = bytes[0] === 0x6c
  if (!little && bytes[0] !== 0x42) throw new Error('not a D-Bus message')
  if (bytes.length < 16) return undefined
  const u32 = (at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at))
  const fieldsLength = u32(12)
  const bodyLength = u32(4)
  if (bytes[3] !== 1 || fieldsLength > 1 << 26 || bodyLength > 1 << 27) throw new Error('not a D-Bus message')
  const bodyAt = 16 + fieldsLength + ((8 - ((16 + fieldsLength) % 8)) % 8)
  const length = bodyAt + bodyLength
  if (bytes.length < length) return undefined
  const message: DbusMessage = {type: bytes[1], serial: u32(8), length}
  let at = 16
  const end = 16 + fieldsLength
  while (at < end) {
    at += (8 - (at % 8)) % 8
    const code = bytes[at]
    const signatureLength = bytes[at + 1]
    const type = String.fromCharCode(bytes[at + 2])
    at += 2 + signatureLength + 1
    if (signatureLength !== 1) throw new Error('not a D-Bus message')
    if (type === 'u' || type === 'h') {
      at += (4 - (at % 4)) % 4
      if (code === FIELD.replySerial) message.replySerial = u32(at)
      at += 4
    } else if (type === 's' || type === 'o') {
      at += (4 - (at % 4)) % 4
      const size = u32(at)
      if (code === FIELD.errorName) message.errorName = bytes.toString('utf8', at + 4, at + 4 + size)
      at += 4 + size + 1
    } else if (type === 'g') {
      at += 1 + bytes[at] + 1
    } else throw new Error('not a D-Bus message')
  }
  if (at > end + 7) throw new Error('not a D-Bus message')
  return message
}

/** Where the keychain lives on the bus, and the errors that say nothing answers there. */
export const SECRET_SERVICE = 'org.freedesktop.secrets'
const NO_SERVICE = ['org.freedesktop.DBus.Error.ServiceUnknown', 'org.freedesktop.DBus.Error.NameHasNoOwner']

/**
 * Resolves when the bus at `endpoint` goes through what the keychain module does on amctl's main
 * thread, synchronously, before anything of it can be given up: libdbus's authentication
 * (`AUTH EXTERNAL` answered `OK`; on a unix socket `NEGOTIATE_UNIX_FD` answered `AGREE_UNIX_FD` or
 * `ERROR`), `BEGIN` and `Hello` answered, then a `Ping` of the Secret Service answered (which
 * starts it if the bus activates it, as the module's `OpenSession` would). All of it within `ms`,
 * and without blocking: Ctrl-C ends amctl at any point. Rejects, naming why, when the bus cannot
 * be reached, hangs up, stays silent, answers garbage or refuses, or has no Secret Service. The
 * connection is closed either way. (A bus that answers all of this and then stalls the module's
 * own connection can still hold amctl: for libdbus's own limits, 25 s at `Hello`, 2 s at each
 * Secret Service call.)
 */
export async function busAnswers(endpoint: NetConnectOpts, ms: number): Promise<void> {
  // node:net only here: a command that needs no keychain (config list) does not load it (test/bin/launcher.test.ts)
  const {connect} = await import('node:net')
  const unix = 'path' in endpoint
  return new Promise<void>((resolve, reject) => {
    const socket = connect(endpoint)
    let heard = Buffer.alloc(0)
    let step: 'auth' | 'unix-fd' | 'hello' | 'ping' = 'auth'
    let finished = false
    const done = (error?: string): void => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      socket.destroy()
      if (error === undefined) resolve()
      else reject(new Error(error))
    }
    const timer = setTimeout(() => done(`the D-Bus session bus did not answer within ${ms / 1000} s`), ms)
    const garbage = (what: string) => done(`the D-Bus session bus answered ${what}, not what a bus answers`)
    const begin = () => {
      step = 'hello'
      const bus = {path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', destination: 'org.freedesktop.DBus'}
      const ping = {path: '/org/freedesktop/secrets', interface: 'org.freedesktop.DBus.Peer', destination: SECRET_SERVICE}
      socket.write(
        Buffer.concat([Buffer.from('BEGIN\r\n'), dbusCall(1, {...bus, member: 'Hello'}), dbusCall(2, {...ping, member: 'Ping'})]),
      )
    }
    /** One line of the authentication: each step's answer, anything else ends the check. */
    const line = (text: string): void => {
      if (step === 'auth') {
        if (text.startsWith('REJECTED')) done('the D-Bus session bus refused authentication as this user (EXTERNAL)')
        else if (!/^OK [0-9a-f]{32}$/.test(text)) garbage(`${JSON.stringify(text.slice(0, 40))} to AUTH`)
        else if (!unix) begin()
        else {
          step = 'unix-fd'
          socket.write('NEGOTIATE_UNIX_FD\r\n')
        }
      } else if (text === 'AGREE_UNIX_FD' || text.startsWith('ERROR')) begin()
      else garbage(`${JSON.stringify(text.slice(0, 40))} to NEGOTIATE_UNIX_FD`)
    }
    /** The messages after BEGIN: the answer to Hello (serial 1), then to the Ping (serial 2). */
    const message = (m: DbusMessage): void => {
      if (m.type !== METHOD_RETURN && m.type !== ERROR) return
      if (step === 'hello' && m.replySerial === 1) {
        if (m.type === ERROR) done(`the D-Bus session bus refused Hello (${m.errorName ?? 'an error'})`)
        else step = 'ping'
      } else if (step === 'ping' && m.replySerial === 2) {
        done(m.type === ERROR && NO_SERVICE.includes(m.errorName ?? '') ? 'no Secret Service answers on the D-Bus session bus' : undefined)
      }
    }
    socket.on('connect', () => {
      const uid = String(process.getuid?.() ?? 0)
      socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid).toString('hex')}\r\n`)
    })
    socket.on('data', (chunk: Buffer) => {
      heard = Buffer.concat([heard, chunk])
      try {
        while (!finished && (step === 'auth' || step === 'unix-fd')) {
          const at = heard.indexOf('\r\n')
          if (at < 0) {
            if (heard.length > 512) garbage('a line without end')
            return
          }
          const text = heard.toString('latin1', 0, at)
          heard = heard.subarray(at + 2)
          line(text)
        }
        for (let m = readDbusMessage(heard); m !== undefined && !finished; m = readDbusMessage(heard)) {
          heard = heard.subarray(m.length)
          message(m)
        }
      } catch {
        garbage('bytes that are no D-Bus message')
      }
    })
    socket.on('error', (error: NodeJS.ErrnoException) => done(`the D-Bus session bus cannot be reached (${error.code ?? error.message})`))
    socket.on('close', () => done('the D-Bus session bus hung up'))
  })
}
