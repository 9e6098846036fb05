import {writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {busAnswers, sessionBusEndpoint, sessionBusReachable} from '../../../src/core/auth/session-bus.js'
import {fakeSessionBus} from '../../helpers/session-bus.js'
import {tempDir} from '../../helpers/temp.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('sessionBusReachable (as libdbus looks for the bus)', () => {
  it('DBUS_SESSION_BUS_ADDRESS names one', () => {
    expect(sessionBusReachable({DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus'})).toBe(true)
  })

  it('else a socket named bus in XDG_RUNTIME_DIR; a file of that name, or nothing, is no bus', async () => {
    const withSocket = tempDir('amctl-bus-')
    const socket = createServer()
    await new Promise<void>((resolve) => socket.listen(join(withSocket, 'bus'), resolve))
    try {
      expect(sessionBusReachable({XDG_RUNTIME_DIR: withSocket})).toBe(true)
    } finally {
      await new Promise((resolve) => socket.close(resolve))
    }
    const withFile = tempDir('amctl-bus-')
    writeFileSync(join(withFile, 'bus'), '')
    expect(sessionBusReachable({XDG_RUNTIME_DIR: withFile})).toBe(false)
    expect(sessionBusReachable({XDG_RUNTIME_DIR: tempDir('amctl-bus-')})).toBe(false)
    expect(sessionBusReachable({})).toBe(false)
  })
})

describe('sessionBusEndpoint: where libdbus connects first', () => {
  it.each([
    ['unix:path=/run/user/1000/bus', {path: '/run/user/1000/bus'}],
    ['unix:path=/tmp/my%20bus,guid=0123', {path: '/tmp/my bus'}],
    ['unix:abstract=/tmp/dbus-AbC,guid=0123', {path: '\0/tmp/dbus-AbC'}],
    ['unix:path=/a;unix:path=/b', {path: '/a'}],
    ['tcp:host=127.0.0.1,port=12345', {host: '127.0.0.1', port: 12345}],
    ['tcp:port=12345', {host: 'localhost', port: 12345}],
  ])('%s', (address, endpoint) => {
    expect(sessionBusEndpoint({DBUS_SESSION_BUS_ADDRESS: address})).toEqual(endpoint)
  })

  it.each([
    'unixexec:path=/bin/true',
    'nonce-tcp:host=a,port=1',
    'launchd:env=X',
    'tcp:host=a,port=99999',
    'unix:dir=/tmp',
    'unix:path=%zz',
  ])('%s: not asked first (node:net cannot open it)', (address) => {
    expect(sessionBusEndpoint({DBUS_SESSION_BUS_ADDRESS: address})).toBeUndefined()
  })

  it('without DBUS_SESSION_BUS_ADDRESS: $XDG_RUNTIME_DIR/bus, or none', () => {
    expect(sessionBusEndpoint({XDG_RUNTIME_DIR: '/run/user/7'})).toEqual({path: '/run/user/7/bus'})
    expect(sessionBusEndpoint({})).toBeUndefined()
  })
})

describe('busAnswers: the first line of the handshake', () => {
  it('a bus that answers: resolves, having sent AUTH EXTERNAL with the uid in hex, and hangs up', async () => {
    const bus = await fakeSessionBus({answers: true})
    try {
      await busAnswers({path: bus.path}, 3000)
      const uid = String(process.getuid?.() ?? 0)
      expect(bus.lines).toEqual([`\0AUTH EXTERNAL ${Buffer.from(uid).toString('hex')}`])
      await new Promise<void>((resolve) => (bus.connections[0]?.closed ? resolve() : bus.connections[0]?.once('close', () => resolve())))
    } finally {
      await bus.close()
    }
  })

  it('a bus that accepts and never answers: given up at the limit, not before, the connection closed', async () => {
    const bus = await fakeSessionBus({answers: false})
    try {
      vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
      let settled: unknown
      const asked = busAnswers({path: bus.path}, 3000).then(
        () => (settled = 'answered'),
        (error: unknown) => (settled = error),
      )
      while (bus.lines.length === 0) await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(2999)
      expect(settled).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await asked
      expect((settled as Error).message).toBe('the D-Bus session bus did not answer within 3 s')
      await new Promise<void>((resolve) => (bus.connections[0]?.closed ? resolve() : bus.connections[0]?.once('close', () => resolve())))
    } finally {
      await bus.close()
    }
  })

  it('no socket there: rejects at once, naming why', async () => {
    await expect(busAnswers({path: join(tempDir('amctl-bus-'), 'bus')}, 3000)).rejects.toThrow(
      'the D-Bus session bus cannot be reached (ENOENT)',
    )
  })
})
