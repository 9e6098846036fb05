import {createServer, type Socket} from 'node:net'
import {join} from 'node:path'
import {tempDir} from './temp.js'

/** How far a fake session bus goes through the opening exchange before it stalls (or answers garbage). */
export type BusStage =
  /** accepts and reads, never answers (a hung bus) */
  | 'nothing'
  /** answers the first line, `AUTH EXTERNAL`, with `OK <guid>`, then stalls */
  | 'auth'
  /** … and `NEGOTIATE_UNIX_FD` with `AGREE_UNIX_FD`, then stalls (never answers Hello) */
  | 'unix-fd'
  /** … and Hello, then stalls (the Secret Service never answers) */
  | 'hello'
  /** all of it, the Secret Service's Ping too, as dbus-daemon with gnome-keyring does */
  | 'everything'

export interface FakeBusOptions {
  /** `true`: 'everything'; `false`: 'nothing' */
  answers: boolean | BusStage
  /** where it stops answering properly, it answers this line instead of nothing */
  garbage?: string
  /** the Ping of the Secret Service is answered ServiceUnknown, as a bus without one does */
  noSecretService?: boolean
}

const STAGES: BusStage[] = ['nothing', 'auth', 'unix-fd', 'hello', 'everything']
const GUID = '0123456789abcdef0123456789abcdef'

/**
 * A D-Bus session bus on a real unix socket, for the keychain's question to it
 * (src/core/auth/session-bus.ts). It answers the opening exchange as dbus-daemon does, as far as
 * `answers` says, then stalls, or answers `garbage`. `lines` holds the authentication lines it was
 * sent, `members` the methods called after BEGIN; `close` ends it and every connection (call it in
 * afterAll). Its replies are written here, byte by byte after the D-Bus specification, not with
 * amctl's own encoder, so that a mistake in one does not hide in the other.
 */
export async function fakeSessionBus(opts: FakeBusOptions) {
  const stage = opts.answers === true ? 'everything' : opts.answers === false ? 'nothing' : opts.answers
  const reaches = (s: BusStage) => STAGES.indexOf(stage) >= STAGES.indexOf(s)
  const path = join(tempDir('amctl-bus-'), 'bus')
  const connections: Socket[] = []
  const lines: string[] = []
  const members: string[] = []
  const server = createServer((socket) => {
    connections.push(socket)
    socket.on('error', () => {})
    let heard = Buffer.alloc(0)
    let binary = false
    let stalled = false
    const stall = () => {
      if (!stalled && opts.garbage !== undefined) socket.write(`${opts.garbage}\r\n`)
      stalled = true
    }
    socket.on('data', (chunk: Buffer) => {
      heard = Buffer.concat([heard, chunk])
      while (!binary) {
        const at = heard.indexOf('\r\n')
        if (at < 0) return
        const line = heard.toString('latin1', 0, at)
        heard = heard.subarray(at + 2)
        lines.push(line)
        if (line === 'BEGIN') binary = true
        else if (stalled) continue
        else if (line.startsWith('\0AUTH ') && reaches('auth')) socket.write(`OK ${GUID}\r\n`)
        else if (line === 'NEGOTIATE_UNIX_FD' && reaches('unix-fd')) socket.write('AGREE_UNIX_FD\r\n')
        else stall()
      }
      for (let message = parse(heard); message !== undefined; message = parse(heard)) {
        heard = heard.subarray(message.length)
        members.push(message.member)
        if (stalled) continue
        if (message.member === 'Hello' && reaches('hello')) socket.write(reply(message.serial, 's', ':1.7'))
        else if (message.member === 'Ping' && reaches('everything')) {
          socket.write(
            opts.noSecretService
              ? reply(message.serial, 's', 'The name org.freedesktop.secrets was not provided', 'org.freedesktop.DBus.Error.ServiceUnknown')
              : reply(message.serial),
          )
        } else stall()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(path, resolve))
  return {
    path,
    address: `unix:path=${path}`,
    connections,
    lines,
    members,
    close: async () => {
      for (const socket of connections) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A little-endian D-Bus message: a METHOD_RETURN (or an ERROR named `error`) to `serial`, with one string or no body. */
function reply(serial: number, signature = '', text = '', error?: string): Buffer {
  const out: number[] = [0x6c, error === undefined ? 2 : 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
  const pad = (to: number) => {
    while (out.length % to !== 0) out.push(0)
  }
  const u32 = (n: number) => out.push(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff)
  const string = (s: string) => {
    pad(4)
    u32(Buffer.byteLength(s))
    out.push(...Buffer.from(s), 0)
  }
  // header fields: REPLY_SERIAL (5, u), then ERROR_NAME (4, s) and SIGNATURE (8, g) where there are
  pad(8)
  out.push(5, 1, 0x75, 0)
  u32(serial)
  if (error !== undefined) {
    pad(8)
    out.push(4, 1, 0x73, 0)
    string(error)
  }
  if (signature !== '') {
    pad(8)
    out.push(8, 1, 0x67, 0, signature.length, ...Buffer.from(signature), 0)
  }
  const fields = out.length - 16
  pad(8)
  const bodyAt = out.length
  if (signature === 's') string(text)
  const message = Buffer.from(out)
  message.writeUInt32LE(out.length - bodyAt, 4)
  message.writeUInt32LE(1000 + serial, 8)
  message.writeUInt32LE(fields, 12)
  return message
}

/** The serial and member of the method call at the start of `bytes` (little-endian, as libdbus and amctl write), if it is all there. */
function parse(bytes: Buffer): {serial: number; member: string; length: number} | undefined {
  if (bytes.length < 16) return undefined
  const fields = bytes.readUInt32LE(12)
  const length = 16 + fields + ((8 - ((16 + fields) % 8)) % 8) + bytes.readUInt32LE(4)
  if (bytes.length < length) return undefined
  // the MEMBER field (3, s): its string follows the bytes 03 01 73 00 and a 4-byte length
  const at = bytes.subarray(16, 16 + fields).indexOf(Buffer.from([3, 1, 0x73, 0]))
  const size = bytes.readUInt32LE(16 + at + 4)
  return {serial: bytes.readUInt32LE(8), member: bytes.toString('utf8', 16 + at + 8, 16 + at + 8 + size), length}
}
