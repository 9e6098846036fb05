import {existsSync, readFileSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {DevServerOptionError, startDevServer} from '../../src/devserver/index.js'
import {EVAL_SETS, RUN_COUNTS, TAGS, USERS} from '../../src/devserver/seed.js'
import {expectError, sleep, startTestServer} from './helpers.js'
import {tempDir} from '../helpers/temp.js'

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
      for (let i = 0; i < 60; i += 1) {
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
    expect(state.evalSets[EVAL_SETS.acmeCheckout].item.samplesPerTarget).toBe(10)
    expect(readdirSync(join(file, '..'))).toEqual(['state.json'])
  })

  it('refuses a file that is not dev server state', async () => {
    const file = tempFile()
    writeFileSync(file, '{"half": ')
    await expect(startDevServer({port: 0, dataFile: file})).rejects.toThrow(DevServerOptionError)
    writeFileSync(file, '{"some": "other json"}')
    await expect(startDevServer({port: 0, dataFile: file})).rejects.toThrow(/not a dev server state file/)
  })

  it('with 100,000 runs: coalesced writes, close flushes, restart loads them all', async () => {
    const file = tempFile()
    const server = await startTestServer({dataFile: file})
    const ada = await server.token(USERS.ada.email)
    await server.call('POST', '/_dev/orgs/acme/runs', {body: {count: 100_000}})
    for (let i = 0; i < 20; i += 1) await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
    await server.close()

    const again = await startDevServer({port: 0, dataFile: file})
    try {
      const state = (await fetch(`${again.url}/_dev/orgs/acme`).then((res) => res.json())) as {runCount: number}
      expect(state.runCount).toBe(RUN_COUNTS.acme + 100_000 + 20 * 3)
    } finally {
      await again.close()
    }
  })
})
