import {createServer, type Socket} from 'node:net'
import {join} from 'node:path'
import {tempDir} from './temp.js'

/**
 * A D-Bus session bus on a real unix socket, for the keychain's question to it
 * (src/core/auth/session-bus.ts): `answers` says `OK <guid>` to the handshake's first line as
 * dbus-daemon does; otherwise it accepts and reads, and never answers (a hung bus). `lines` holds
 * what it was sent; `close` ends it and every connection (call it in afterAll).
 */
export async function fakeSessionBus(opts: {answers: boolean}) {
  const path = join(tempDir('amctl-bus-'), 'bus')
  const connections: Socket[] = []
  const lines: string[] = []
  const server = createServer((socket) => {
    connections.push(socket)
    socket.setEncoding('latin1')
    socket.on('error', () => {})
    let heard = ''
    socket.on('data', (chunk: string) => {
      heard += chunk
      for (let at = heard.indexOf('\r\n'); at >= 0; at = heard.indexOf('\r\n')) {
        lines.push(heard.slice(0, at))
        heard = heard.slice(at + 2)
        if (opts.answers) socket.write('OK 0123456789abcdef0123456789abcdef\r\n')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(path, resolve))
  return {
    path,
    address: `unix:path=${path}`,
    connections,
    lines,
    close: async () => {
      for (const socket of connections) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
