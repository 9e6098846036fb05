import {spawn, spawnSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {busAnswers, sessionBusEndpoint, sessionBusReachable} from '../../../src/core/auth/session-bus.js'
import {fakeSessionBus} from '../../helpers/session-bus.js'
import {tempDir} from '../../helpers/temp.js'
import {sealedEnv} from '../../helpers/env.js'

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

describe('busAnswers: what the keychain module does on the main thread, asked first without blocking', () => {
  const uidHex = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex')
  const closed = (socket: import('node:net').Socket | undefined) =>
    new Promise<void>((resolve) => (socket === undefined || socket.closed ? resolve() : socket.once('close', () => resolve())))

  it('a bus that answers all of it: resolves, having authenticated as libdbus does, said Hello, pinged the Secret Service, and hangs up', async () => {
    const bus = await fakeSessionBus({answers: true})
    try {
      await busAnswers({path: bus.path}, 3000)
      expect(bus.lines).toEqual([`\0AUTH EXTERNAL ${uidHex}`, 'NEGOTIATE_UNIX_FD', 'BEGIN'])
      expect(bus.members).toEqual(['Hello', 'Ping'])
      await closed(bus.connections[0])
    } finally {
      await bus.close()
    }
  })

  it.each([
    ['nothing', 'accepts and never answers'],
    ['auth', 'answers the first AUTH line, then stalls (issue 32 item 10)'],
    ['unix-fd', 'answers AUTH and NEGOTIATE_UNIX_FD, then never answers Hello'],
    ['hello', 'answers Hello, then the Secret Service never answers'],
  ] as const)('a bus that %s (%s): given up at the limit, not before, the connection closed', async (stage, _what) => {
    const bus = await fakeSessionBus({answers: stage})
    try {
      vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
      let settled: unknown
      const asked = busAnswers({path: bus.path}, 3000).then(
        () => (settled = 'answered'),
        (error: unknown) => (settled = error),
      )
      const sent = {nothing: 1, auth: 2, 'unix-fd': 3, hello: 3}[stage]
      while (bus.lines.length < sent) await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(2999)
      expect(settled).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await asked
      expect((settled as Error).message).toBe('the D-Bus session bus did not answer within 3 s')
      await closed(bus.connections[0])
    } finally {
      await bus.close()
    }
  })

  it.each([
    ['nothing', 'REJECTED EXTERNAL', 'the D-Bus session bus refused authentication as this user (EXTERNAL)'],
    ['nothing', 'hello there', 'the D-Bus session bus answered "hello there" to AUTH, not what a bus answers'],
    ['auth', 'DATA', 'the D-Bus session bus answered "DATA" to NEGOTIATE_UNIX_FD, not what a bus answers'],
    ['unix-fd', 'garbage', 'the D-Bus session bus answered bytes that are no D-Bus message, not what a bus answers'],
  ] as const)('a bus that answers after %s (%j): refused at once, naming it (issue 32 item 10)', async (stage, garbage, message) => {
    const bus = await fakeSessionBus({answers: stage, garbage})
    try {
      await expect(busAnswers({path: bus.path}, 3000)).rejects.toThrow(message)
      await closed(bus.connections[0])
    } finally {
      await bus.close()
    }
  })

  it('a bus without a Secret Service (Ping answered ServiceUnknown): refused at once, the module never asked', async () => {
    const bus = await fakeSessionBus({answers: true, noSecretService: true})
    try {
      await expect(busAnswers({path: bus.path}, 3000)).rejects.toThrow('no Secret Service answers on the D-Bus session bus')
    } finally {
      await bus.close()
    }
  })

  it('no socket there: rejects at once, naming why', async () => {
    await expect(busAnswers({path: join(tempDir('amctl-bus-'), 'bus')}, 3000)).rejects.toThrow(
      'the D-Bus session bus cannot be reached (ENOENT)',
    )
  })

  const daemon = spawnSync('sh', ['-c', 'command -v dbus-daemon'], {env: sealedEnv()}).status === 0
  if (!daemon) console.warn('skipped: dbus-daemon is not installed (.ci/run installs it)')
  it.runIf(daemon)('a real dbus-daemon: the whole exchange goes through (it has no Secret Service, and says so)', async () => {
    const dir = tempDir('amctl-dbus-daemon-')
    // a session bus of its own that starts no service (the system's session configuration would
    // start gnome-keyring for the Ping where it is installed, as a desktop does)
    const config = join(dir, 'session.conf')
    writeFileSync(
      config,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${join(dir, 'bus')}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
    )
    const child = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--nopidfile', '--print-address'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: sealedEnv(),
    })
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
      await expect(busAnswers({path: join(dir, 'bus')}, 3000)).rejects.toThrow('no Secret Service answers on the D-Bus session bus')
    } finally {
      child.kill()
      await new Promise((resolve) => child.once('close', resolve))
    }
  })
})
