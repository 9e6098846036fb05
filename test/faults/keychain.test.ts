import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {useE2E} from '../e2e/helpers.js'
import {type BinOptions, freshConfigDir} from '../helpers/bin.js'
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

/** runs list with the token in credentials.json, the keychain tried on the bus at `address`. */
async function runsList(address: string, opts: Pick<BinOptions, 'onSpawn'> = {}) {
  const configDir = freshConfigDir()
  const login = await e2e.current.amctl(['auth', 'login', '--with-token', '--insecure-storage'], {
    as: null,
    configDir,
    input: await e2e.current.token(),
  })
  expect(login.exitCode, login.stderr).toBe(0)
  return e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '2'], {
    as: null,
    configDir,
    env: {AMCTL_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: address},
    timeoutMs: 30_000,
    onSpawn: opts.onSpawn,
  })
}

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
    const r = await runsList(bus.address)
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

// Issue 32 items 10 and 11: a bus that answers part of the opening exchange and then stalls, or
// answers garbage, or whose address amctl cannot ask first. The keychain module does the whole
// exchange synchronously on amctl's main thread, so amctl goes through it first, without
// blocking: 3 s for all of it, Ctrl-C at any point.
describe.runIf(process.platform === 'linux')('a session bus that stalls partway, answers garbage, or cannot be asked first', () => {
  const buses: Array<Awaited<ReturnType<typeof fakeSessionBus>>> = []
  afterAll(async () => {
    for (const one of buses) await one.close()
  })
  const busAt = async (opts: Parameters<typeof fakeSessionBus>[0]) => {
    const one = await fakeSessionBus(opts)
    buses.push(one)
    return one
  }
  it.each(['auth', 'unix-fd', 'hello'] as const)(
    'stalls after %s: the keychain given up within its 3 s, the file used, exit 0',
    async (stage) => {
      const bus = await busAt({answers: stage})
      const r = await runsList(bus.address)
      fig.set(`stalls-${stage}`, {exitCode: r.exitCode, ms: round(r.ms)})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout.trim().split('\n')).toHaveLength(2)
      // the 3 s and the start, never libdbus's 25 s (or for ever, deaf to Ctrl-C, after AUTH)
      expect(r.ms).toBeLessThan(15_000)
      expect(r.stderr).not.toMatch(STACK_FRAME)
    },
    60_000,
  )

  it.each([
    ['garbage to AUTH', {answers: 'nothing', garbage: 'WHAT?'}],
    ['garbage after AUTH', {answers: 'auth', garbage: 'WHAT?'}],
    ['no Secret Service', {answers: true, noSecretService: true}],
  ] as const)(
    '%s: the keychain given up at once, the file used, exit 0',
    async (name, opts) => {
      const bus = await busAt(opts)
      const r = await runsList(bus.address)
      fig.set(`answers-${name.replaceAll(' ', '-')}`, {exitCode: r.exitCode, ms: round(r.ms)})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(r.stdout.trim().split('\n')).toHaveLength(2)
      expect(r.ms).toBeLessThan(3000)
    },
    60_000,
  )

  it('an address amctl cannot ask first (unixexec:): no keychain, at once, exit 0 (was: blocked until Ctrl-C, then exit 3)', async () => {
    const r = await runsList('unixexec:path=/bin/sleep,argv1=600')
    fig.set('unixexec', {exitCode: r.exitCode, ms: round(r.ms)})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(2)
    expect(r.ms).toBeLessThan(3000)
  }, 60_000)

  it.each(['auth', 'hello'] as const)(
    'Ctrl-C while the bus stalls after %s: exit 130 at once',
    async (stage) => {
      const bus = await busAt({answers: stage})
      const sent = {auth: 2, hello: 3}[stage]
      let sentAt = 0
      const r = await runsList(bus.address, {
        onSpawn: (child) => {
          const poll = setInterval(() => {
            // amctl is waiting on the bus at that step now
            if (bus.lines.length >= sent) {
              clearInterval(poll)
              sentAt = performance.now()
              child.kill('SIGINT')
            }
          }, 10)
          child.once('close', () => clearInterval(poll))
        },
      })
      fig.set(`ctrlC-${stage}`, {exitCode: r.exitCode})
      expect(sentAt).toBeGreaterThan(0)
      expect(r.signal).toBeNull()
      expect(r.exitCode).toBe(130)
    },
    60_000,
  )
})
