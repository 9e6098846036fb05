import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {useE2E} from '../e2e/helpers.js'
import {freshConfigDir} from '../helpers/bin.js'
import {fakeSessionBus} from '../helpers/session-bus.js'
import {figures} from './figures.js'
import {round, STACK_FRAME} from './helpers.js'

// A keychain that never answers: DBUS_SESSION_BUS_ADDRESS names a real unix socket that accepts
// the connection and reads the handshake, but never answers (a hung session bus). Each keychain
// call has 3 s (docs/auth.md), the connection and the handshake included; then amctl uses the
// file, as documented. Ctrl-C ends it at once. The built CLI, as a user runs it.

const e2e = useE2E()
const fig = figures('keychain')

let bus: Awaited<ReturnType<typeof fakeSessionBus>>
beforeAll(async () => {
  bus = await fakeSessionBus({answers: false})
})
afterAll(() => bus.close())

/** The environment of a desktop whose session bus hangs: the keychain is tried. */
const hungBus = () => ({AMCTL_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: bus.address})

describe.runIf(process.platform === 'linux')('a D-Bus session bus that accepts and never answers', () => {
  it('auth login --with-token: the write gives up after 3 s, the token goes to the file, saying why', async () => {
    const configDir = freshConfigDir()
    const token = await e2e.current.token()
    const r = await e2e.current.amctl(['auth', 'login', '--with-token'], {as: null, configDir, input: token, env: hungBus()})
    fig.set('login', {exitCode: r.exitCode, ms: round(r.ms)})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(
      /^warning: the OS keychain is not available \(the keychain did not answer a write within 3 s\); the token is stored in .*credentials\.json \(mode 0600\)$/m,
    )
    expect(JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')).tokens).toMatchObject({
      [`default@${e2e.current.url}`]: {token},
    })
  }, 60_000)

  it('runs list: the read gives up after 3 s, the token in the file is used, exit 0', async () => {
    const configDir = freshConfigDir()
    const login = await e2e.current.amctl(['auth', 'login', '--with-token', '--insecure-storage'], {
      as: null,
      configDir,
      input: await e2e.current.token(),
    })
    expect(login.exitCode, login.stderr).toBe(0)
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '2'], {as: null, configDir, env: hungBus()})
    fig.set('runsList', {exitCode: r.exitCode, ms: round(r.ms)})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(2)
    expect(r.stderr).not.toMatch(STACK_FRAME)
  }, 60_000)

  it('Ctrl-C while the keychain call hangs: exit 130 at once, its connection to the bus closed', async () => {
    const seen = bus.connections.length
    let sentAt = 0
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme'], {
      as: null,
      env: hungBus(),
      timeoutMs: 30_000,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          // amctl connected to the bus and sent the handshake: the call is hanging now
          if (bus.connections.length > seen) {
            clearInterval(poll)
            sentAt = performance.now()
            child.kill('SIGINT')
          }
        }, 10)
        child.once('close', () => clearInterval(poll))
      },
    })
    const connection = bus.connections[seen]
    fig.set('ctrlC', {exitCode: r.exitCode})
    expect(sentAt).toBeGreaterThan(0)
    expect(r.signal).toBeNull()
    expect(r.exitCode).toBe(130)
    // nothing of amctl outlives it: its connection to the bus is closed
    await new Promise<void>((resolve) => (connection.destroyed ? resolve() : connection.once('close', () => resolve())))
  }, 60_000)
})
