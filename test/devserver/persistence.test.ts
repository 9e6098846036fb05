import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {DevServerOptionError, startDevServer} from '../../src/devserver/index.js'
import {EVAL_SETS, RUN_COUNTS, TAGS, USERS, seedState} from '../../src/devserver/seed.js'
import {expectError, sleep, startTestServer} from './helpers.js'
import {tempDir} from '../helpers/temp.js'
import {sealedEnv} from '../helpers/env.js'
import {systemClock} from '../../src/core/clock.js'

const tempFile = () => join(tempDir('amctl-devserver-'), 'state.json')

describe('--data FILE', () => {
  it('seeds and writes the file when it does not exist, private to the user', async () => {
    const file = tempFile()
    const server = await startTestServer({dataFile: file})
    try {
      expect(existsSync(file)).toBe(true)
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const state = JSON.parse(readFileSync(file, 'utf8'))
      expect(state.format).toBe('amctl-devserver-state')
      expect(state.runs[Object.keys(state.runs)[0]]).toHaveLength(RUN_COUNTS.acme)
    } finally {
      await server.close()
    }
  })

  it('keeps every change across a restart (the file wins over --seed)', async () => {
    const file = tempFile()
    const first = await startTestServer({dataFile: file})
    const ada = await first.token(USERS.ada.email)
    const created = await first.api('POST', '/tokens', {token: ada, body: {name: 'kept', expiresIn: '7d'}})
    await first.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: ada, body: {cadence: 'MONTHLY', samplesPerTarget: 9}})
    await first.api('DELETE', `/orgs/acme/tags/${TAGS.acmeNightly}`, {token: ada})
    const launched = await first.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
    await first.call('DELETE', `/_dev/orgs/globex/members/${USERS.grace.email}`)
    await first.close()

    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(ada)
    expect(text).not.toContain(created.body.token)

    const second = await startTestServer({dataFile: file, seed: 'empty'})
    try {
      const patched = await second.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: created.body.token, body: {}})
      expect(patched.body).toMatchObject({cadence: 'MONTHLY', samplesPerTarget: 9})
      expectError(await second.api('DELETE', `/orgs/acme/tags/${TAGS.acmeNightly}`, {token: ada}), 404, 'not_found')
      const top = await second.api('GET', `/orgs/acme/runs?limit=${launched.body.runIds.length}`, {token: ada})
      expect(top.body.items.map((run: any) => run.id)).toEqual([...launched.body.runIds].reverse())
      expect((await second.call('GET', '/_dev/orgs/globex')).body.members).toEqual([USERS.ada.email])
      // generated IDs keep counting: nothing new collides with what was kept
      const again = await second.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
      expect(again.body.runIds.some((id: string) => launched.body.runIds.includes(id))).toBe(false)
    } finally {
      await second.close()
    }
  })

  it('keeps a member named __proto__ across a restart', async () => {
    const file = tempFile()
    const first = await startTestServer({dataFile: file})
    const ada = await first.token(USERS.ada.email)
    const raw = '{"__proto__":{"owner":"ada"}}'
    expect((await first.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: ada, raw})).status).toBe(200)
    await first.close()
    const second = await startTestServer({dataFile: file})
    try {
      const stored = await second.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: ada, body: {}})
      expect(stored.text).toContain('"__proto__":{"owner":"ada"}')
    } finally {
      await second.close()
    }
  })

  it('never leaves a partial file: it parses at every moment while changes stream in', async () => {
    const file = tempFile()
    const server = await startTestServer({dataFile: file})
    try {
      await server.call('POST', '/_dev/orgs/acme/runs', {body: {count: 5_000}})
      const ada = await server.token(USERS.ada.email)
      let reads = 0
      let writing = true
      const reader = (async () => {
        while (writing) {
          JSON.parse(readFileSync(file, 'utf8'))
          reads += 1
          await sleep(1)
        }
      })()
      for (let i = 0; i < 30; i += 1) {
        await server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`, {token: ada, body: {samplesPerTarget: (i % 50) + 1}})
      }
      await sleep(100)
      writing = false
      await reader
      expect(reads).toBeGreaterThan(10)
    } finally {
      await server.close()
    }
    const state = JSON.parse(readFileSync(file, 'utf8'))
    expect(state.evalSets[EVAL_SETS.acmeCheckout].item.samplesPerTarget).toBe(30)
    expect(readdirSync(join(file, '..'))).toEqual(['state.json'])
  })

  it('refuses a file that is not dev server state', async () => {
    const file = tempFile()
    writeFileSync(file, '{"half": ')
    await expect(startDevServer({now: systemClock.wall, port: 0, dataFile: file})).rejects.toThrow(DevServerOptionError)
    writeFileSync(file, '{"some": "other json"}')
    await expect(startDevServer({now: systemClock.wall, port: 0, dataFile: file})).rejects.toThrow(/not a dev server state file/)
  })

  // (about 20 MB written per change, and read back: 10 s alone on a 2-core machine at load 30,
  // more beside the integration project's other workers; the time limit guards against a hang)
  it('with 100,000 runs: each change written as it is answered, restart loads them all', {timeout: 120_000}, async () => {
    const file = tempFile()
    const server = await startTestServer({dataFile: file})
    const ada = await server.token(USERS.ada.email)
    await server.call('POST', '/_dev/orgs/acme/runs', {body: {count: 100_000}})
    for (let i = 0; i < 3; i += 1) await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
    await server.close()

    const again = await startDevServer({now: systemClock.wall, port: 0, dataFile: file})
    try {
      const state = (await fetch(`${again.url}/_dev/orgs/acme`).then((res) => res.json())) as {runCount: number}
      expect(state.runCount).toBe(RUN_COUNTS.acme + 100_000 + 3 * 3)
    } finally {
      await again.close()
    }
  })

  it('reads a file written before runs moved on their own (no runPlans)', async () => {
    const file = tempFile()
    const {runPlans: _plans, ...older} = seedState('default', systemClock.wall())
    writeFileSync(file, JSON.stringify(older))
    const server = await startTestServer({dataFile: file})
    try {
      const ada = await server.token(USERS.ada.email)
      expect((await server.api('GET', '/orgs/acme/runs?limit=1', {token: ada})).status).toBe(200)
    } finally {
      await server.close()
    }
  })
})

describe('--data FILE: its shape is checked before the server listens', () => {
  const broken = (change: (state: any) => void) => {
    const state: any = seedState('default', systemClock.wall())
    change(state)
    return JSON.stringify(state)
  }

  it.each([
    ['orgs[0].members must be an array, got string "usr_ada"', (s: any) => (s.orgs[0].members = 'usr_ada')],
    ['counter must be an integer, got string "7"', (s: any) => (s.counter = '7')],
    ['runs.org_01J9ACME0000000000000000[0].status is required', (s: any) => delete s.runs.org_01J9ACME0000000000000000[0].status],
    ['tokens is required', (s: any) => delete s.tokens],
    [
      'evalSets.es_acme_checkout.item.cadence must be one of NONE, DAILY, WEEKLY, MONTHLY, got string "HOURLY"',
      (s: any) => (s.evalSets.es_acme_checkout.item.cadence = 'HOURLY'),
    ],
  ])('refuses a file where %s', async (message, change) => {
    const file = tempFile()
    writeFileSync(file, broken(change))
    const error = await startDevServer({now: systemClock.wall, port: 0, dataFile: file}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DevServerOptionError)
    expect((error as Error).message).toBe(`${file} is not usable dev server state: ${message}`)
    // refused before listening, and the file is free again
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})

describe('--data FILE is locked while a server uses it', () => {
  it('a second server on the same file is refused, naming the holder and the lock; it is free again after close', async () => {
    const file = tempFile()
    const first = await startDevServer({now: systemClock.wall, port: 0, dataFile: file, seed: 'empty'})
    try {
      const lock = JSON.parse(readFileSync(`${file}.lock`, 'utf8'))
      expect(lock).toMatchObject({pid: process.pid, host: hostname()})
      const error = await startDevServer({now: systemClock.wall, port: 0, dataFile: file}).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DevServerOptionError)
      expect((error as Error).message).toBe(
        `${file} is in use by another amctl dev server (process ${process.pid} on ${hostname()} since ${lock.startedAt}; ` +
          `lock ${file}.lock); stop that server first`,
      )
    } finally {
      await first.close()
    }
    expect(existsSync(`${file}.lock`)).toBe(false)
    const again = await startDevServer({now: systemClock.wall, port: 0, dataFile: file})
    await again.close()
  })

  it('takes over the lock of a process that is gone (a crash, kill -9)', async () => {
    const file = tempFile()
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8', env: sealedEnv()})
    writeFileSync(`${file}.lock`, JSON.stringify({pid: Number(gone.stdout), host: hostname(), startedAt: '2020-01-01T00:00:00.000Z'}))
    const server = await startDevServer({now: systemClock.wall, port: 0, dataFile: file, seed: 'empty'})
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid)
    await server.close()
  })

  it('releases the lock when the server cannot listen', async () => {
    const file = tempFile()
    const other = await startDevServer({now: systemClock.wall, port: 0, seed: 'empty'})
    try {
      await expect(startDevServer({now: systemClock.wall, port: other.port, dataFile: file})).rejects.toMatchObject({code: 'EADDRINUSE'})
      expect(existsSync(`${file}.lock`)).toBe(false)
    } finally {
      await other.close()
    }
  })

  it('removes the temp files interrupted writes left, and nothing else', async () => {
    const file = tempFile()
    const dir = dirname(file)
    writeFileSync(join(dir, 'state.json.4242.m0abc12xyz.tmp'), '{"half": ')
    writeFileSync(join(dir, 'state.json.bak'), 'kept')
    writeFileSync(join(dir, 'other.json.4242.m0abc12xyz.tmp'), 'kept')
    const server = await startDevServer({now: systemClock.wall, port: 0, dataFile: file, seed: 'empty'})
    await server.close()
    expect(readdirSync(dir).sort()).toEqual(['other.json.4242.m0abc12xyz.tmp', 'state.json', 'state.json.bak'])
  })
})

describe('--data FILE: a change it cannot write is refused (507), and memory and file stay in step', () => {
  /** A non-empty directory where the file was: the atomic rename over it fails, as a full disk would fail the write. */
  function block(file: string): () => void {
    rmSync(file)
    mkdirSync(join(file, 'blocker'), {recursive: true})
    return () => rmSync(file, {recursive: true})
  }

  it('answers 507 insufficient_storage, warns at once, and keeps nothing of the change in memory', async () => {
    const file = tempFile()
    const warnings: string[] = []
    const server = await startTestServer({dataFile: file, warn: (line) => warnings.push(line), runSeconds: 0})
    const ada = await server.token(USERS.ada.email)
    const before = (await server.call('GET', '/_dev/orgs/acme')).body
    const unblock = block(file)

    const credits = await server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 5}})
    expect(expectError(credits, 507, 'insufficient_storage')).toMatch(
      /^the change could not be written to the --data file \(\w+\), so it was not made$/,
    )
    expect(warnings[0]).toMatch(new RegExp(`^could not write ${file}: .*; the change was refused \\(507\\)$`))
    const launch = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
    expectError(launch, 507, 'insufficient_storage')
    const patch = await server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: ada, body: {cadence: 'MONTHLY'}})
    expectError(patch, 507, 'insufficient_storage')
    const minted = await server.api('POST', '/tokens', {token: ada, body: {name: 'refused', expiresIn: '7d'}})
    expectError(minted, 507, 'insufficient_storage')
    // none of it is in memory: the organization, its runs, its eval set and the token are as before
    expect((await server.call('GET', '/_dev/orgs/acme')).body).toEqual(before)
    const top = await server.api('GET', '/orgs/acme/runs?limit=1', {token: ada})
    expect(top.body.items[0].id).toBe('run_acme_0260')
    expect(await server.api('GET', '/me', {token: minted.body.token ?? 'amc_refused'})).toMatchObject({status: 401})

    unblock()
    const kept = await server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 7}})
    expect(kept.status).toBe(200)
    await server.close()

    // acknowledged: in the file; refused: nowhere
    const again = await startTestServer({dataFile: file})
    try {
      const ada2 = await again.token(USERS.ada.email)
      expect((await again.call('GET', '/_dev/orgs/acme')).body).toEqual({...before, credits: 7})
      const stored = await again.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: ada2, body: {}})
      expect(stored.body.cadence).toBe('NONE')
    } finally {
      await again.close()
    }
  })

  it('a run launched after a refused launch is where the refused one would have been: IDs and outcomes as if it never happened', async () => {
    const file = tempFile()
    const server = await startTestServer({dataFile: file, runSeconds: 0})
    const ada = await server.token(USERS.ada.email)
    const unblock = block(file)
    expectError(
      await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}}),
      507,
      'insufficient_storage',
    )
    unblock()
    const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    await server.close()
    const fresh = await startTestServer({runSeconds: 0})
    try {
      const freshAda = await fresh.token(USERS.ada.email)
      const expected = await fresh.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: freshAda, body: {}})
      expect(launched.body).toEqual(expected.body)
    } finally {
      await fresh.close()
    }
  })
})
