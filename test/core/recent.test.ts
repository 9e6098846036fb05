import {chmodSync, chownSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {
  mergeRecent,
  sightingsOfRuns,
  RECENT_LIMITS,
  RECENT_MAX_AGE_MS,
  readRecent,
  recentPath,
  rememberRecent,
  type Sighting,
} from '../../src/core/recent.js'
import {tempDir} from '../helpers/temp.js'

const NOW = Date.UTC(2026, 10, 25, 12)
const HOUR = 3600 * 1000
const envWith = () => ({AMCTL_CACHE_DIR: join(tempDir('amctl-recent-'), 'cache')})
const run = (id: string, org = 'acme', note?: string): Sighting => ({kind: 'runs', id, org, note})

describe('rememberRecent / readRecent', () => {
  it('keeps what a command saw in <cache dir>/recent.json (0600, in a 0700 directory it creates), newest first', () => {
    const env = envWith()
    expect(readRecent(env, NOW)).toEqual({orgs: [], runs: [], evalSets: []})
    expect(rememberRecent(env, [run('run_1', 'acme', 'succeeded, es_1'), {kind: 'orgs', id: 'acme'}], NOW)).toBeUndefined()
    expect(rememberRecent(env, [run('run_2'), {kind: 'evalSets', id: 'es_1', org: 'acme'}], NOW + 1000)).toBeUndefined()
    const file = recentPath(env)
    expect(file).toBe(join(env.AMCTL_CACHE_DIR, 'recent.json'))
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(env.AMCTL_CACHE_DIR).mode & 0o777).toBe(0o700)
    expect(readRecent(env, NOW + 2000)).toEqual({
      orgs: [{id: 'acme', at: NOW}],
      runs: [
        {id: 'run_2', org: 'acme', at: NOW + 1000},
        {id: 'run_1', org: 'acme', note: 'succeeded, es_1', at: NOW},
      ],
      evalSets: [{id: 'es_1', org: 'acme', at: NOW + 1000}],
    })
  })

  it('writes only when an ID is new or was last seen over an hour ago; a new status rides along with the next write', () => {
    const env = envWith()
    rememberRecent(env, [run('run_1', 'acme', 'running')], NOW)
    const file = recentPath(env)
    const written = readFileSync(file, 'utf8')
    writeFileSync(file, written.replace('"running"', '"running" '))
    // the same run a minute later, even in another status: no write (the marker survives)
    rememberRecent(env, [run('run_1', 'acme', 'running')], NOW + 60_000)
    rememberRecent(env, [run('run_1', 'acme', 'succeeded')], NOW + 120_000)
    expect(readFileSync(file, 'utf8')).toContain('"running" ')
    // a new run is written, the status seen with it too
    rememberRecent(env, [run('run_2'), run('run_1', 'acme', 'succeeded')], NOW + 180_000)
    expect(readRecent(env, NOW + 180_000).runs).toEqual([
      {id: 'run_2', org: 'acme', at: NOW + 180_000},
      {id: 'run_1', org: 'acme', note: 'succeeded', at: NOW + 180_000},
    ])
    // and so is a sighting two hours later
    rememberRecent(env, [run('run_1', 'acme', 'succeeded')], NOW + 2 * HOUR + 180_000)
    expect(readRecent(env, NOW + 2 * HOUR + 180_000).runs[0]).toMatchObject({id: 'run_1', at: NOW + 2 * HOUR + 180_000})
  })

  it('forgets what was not seen for 30 days, and keeps at most the newest of each kind', () => {
    const env = envWith()
    rememberRecent(env, [run('run_old')], NOW)
    expect(readRecent(env, NOW + RECENT_MAX_AGE_MS).runs.map((r) => r.id)).toEqual(['run_old'])
    expect(readRecent(env, NOW + RECENT_MAX_AGE_MS + 1).runs).toEqual([])
    const many = Array.from({length: RECENT_LIMITS.runs + 25}, (_, i) => run(`run_${i}`))
    rememberRecent(env, many, NOW)
    const runs = readRecent(env, NOW).runs
    expect(runs).toHaveLength(RECENT_LIMITS.runs)
    // a list keeps its order (the first, the newest, first); its tail is cut
    expect(runs[0].id).toBe('run_0')
    expect(runs.at(-1)?.id).toBe(`run_${RECENT_LIMITS.runs - 1}`)
    // what is seen later comes before what was seen earlier
    rememberRecent(env, [run('run_new')], NOW + 1)
    expect(
      readRecent(env, NOW + 1)
        .runs.slice(0, 2)
        .map((r) => r.id),
    ).toEqual(['run_new', 'run_0'])
    expect(JSON.parse(readFileSync(recentPath(env), 'utf8')).runs).toHaveLength(RECENT_LIMITS.runs)
  })

  it('the same ID in two organizations is two entries; an ID a completion line cannot carry is never kept, any other is data', () => {
    const {next} = mergeRecent(
      {orgs: [], runs: [], evalSets: []},
      [
        run('run_1', 'acme'),
        run('run_1', 'globex'),
        run('run_\u001b[2J'),
        run('run_\u202eevil'),
        run('run_\u2028'),
        run('run_4', 'acme', 'bad\u0007note'),
        // spaces, quotes, `$(…)`: kept as they are (the scripts insert each as one quoted word)
        run('run 2', 'ac me'),
        run('run_$(id)`id`;|&\'"~*'),
      ],
      NOW,
    )
    expect(next.runs).toEqual([
      {id: 'run_1', org: 'acme', at: NOW},
      {id: 'run_1', org: 'globex', at: NOW},
      {id: 'run_4', org: 'acme', at: NOW},
      {id: 'run 2', org: 'ac me', at: NOW},
      {id: 'run_$(id)`id`;|&\'"~*', org: 'acme', at: NOW},
    ])
  })

  it('a thing one command saw twice is kept as it was seen last', () => {
    const {next} = mergeRecent(
      {orgs: [], runs: [], evalSets: []},
      [run('run_1', 'acme', 'launched'), run('run_2'), run('run_1', 'acme', 'failed')],
      NOW,
    )
    expect(next.runs.map((r) => [r.id, r.note])).toEqual([
      ['run_2', undefined],
      ['run_1', 'failed'],
    ])
  })

  it('a corrupt or foreign file is taken as empty and replaced; entries that are not well formed are skipped', () => {
    const env = envWith()
    mkdirSync(env.AMCTL_CACHE_DIR, {recursive: true})
    writeFileSync(recentPath(env), '{"version":1,"runs":[')
    expect(readRecent(env, NOW).runs).toEqual([])
    expect(rememberRecent(env, [run('run_1')], NOW)).toBeUndefined()
    expect(readRecent(env, NOW).runs.map((r) => r.id)).toEqual(['run_1'])
    writeFileSync(
      recentPath(env),
      JSON.stringify({
        version: 1,
        runs: [{id: 'run_ok', at: NOW}, {id: 7, at: NOW}, {id: 'run_noat'}, 'x', {id: 'run_\n', at: NOW}],
        orgs: 'x',
      }),
    )
    expect(readRecent(env, NOW)).toEqual({orgs: [], runs: [{id: 'run_ok', at: NOW}], evalSets: []})
    writeFileSync(recentPath(env), JSON.stringify({version: 2, runs: [{id: 'run_future', at: NOW}]}))
    expect(readRecent(env, NOW).runs).toEqual([])
  })

  describe("read only when it is this user's alone, as the code and help caches are (issue 32 item 2)", () => {
    const root = process.getuid?.() === 0
    /** A cache of run_planted at `dir`/recent.json, as amctl writes one; `change` then alters it. */
    const planted = (change: (file: string, dir: string) => void) => {
      const env = envWith()
      mkdirSync(env.AMCTL_CACHE_DIR, {recursive: true})
      writeFileSync(recentPath(env), JSON.stringify({version: 1, runs: [{id: 'run_planted', org: 'acme', at: NOW}]}))
      // as it is: read (the cases below differ in one thing only)
      expect(readRecent(env, NOW).runs.map((r) => r.id)).toEqual(['run_planted'])
      change(recentPath(env), env.AMCTL_CACHE_DIR)
      return readRecent(env, NOW).runs.map((r) => r.id)
    }
    const elsewhere = () => {
      const dir = join(tempDir('amctl-recent-other-'), 'cache')
      mkdirSync(dir)
      writeFileSync(join(dir, 'recent.json'), JSON.stringify({version: 1, runs: [{id: 'run_planted', org: 'acme', at: NOW}]}))
      return dir
    }

    it('a file others can write is ignored', () => {
      expect(planted((file) => chmodSync(file, 0o666))).toEqual([])
      expect(planted((file) => chmodSync(file, 0o620))).toEqual([])
    })

    it('a file reached through a link (symbolic, or a second name) is ignored', () => {
      expect(
        planted((file) => {
          rmSync(file)
          symlinkSync(join(elsewhere(), 'recent.json'), file)
        }),
      ).toEqual([])
      expect(planted((file) => linkSync(file, join(tempDir('amctl-recent-link-'), 'second-name')))).toEqual([])
    })

    it('a cache directory others can write, or one that is a link, is ignored', () => {
      expect(planted((_file, dir) => chmodSync(dir, 0o777))).toEqual([])
      const env = {AMCTL_CACHE_DIR: join(tempDir('amctl-recent-dirlink-'), 'cache')}
      symlinkSync(elsewhere(), env.AMCTL_CACHE_DIR)
      expect(readRecent(env, NOW).runs).toEqual([])
    })

    it.runIf(root)('a file or a cache directory another user owns is ignored (as root, which can make them)', () => {
      expect(planted((file) => chownSync(file, 65534, 65534))).toEqual([])
      expect(planted((_file, dir) => chownSync(dir, 65534, 65534))).toEqual([])
    })

    it('nothing is written into a cache directory others can write: the failure is returned for --verbose', () => {
      const env = envWith()
      mkdirSync(env.AMCTL_CACHE_DIR, {recursive: true, mode: 0o777})
      chmodSync(env.AMCTL_CACHE_DIR, 0o777)
      expect(rememberRecent(env, [run('run_1')], NOW)?.message).toBe(
        `the cache directory ${env.AMCTL_CACHE_DIR} is not this user's alone (another user owns it or can write it, or it is a link): recent IDs not kept`,
      )
      chmodSync(env.AMCTL_CACHE_DIR, 0o700)
      expect(readRecent(env, NOW).runs).toEqual([])
      expect(dirname(recentPath(env))).toBe(env.AMCTL_CACHE_DIR)
    })
  })

  it('never throws: a cache that cannot be written is reported, not raised', () => {
    // a file where the cache directory should be (refused even to root)
    const file = join(tempDir('amctl-recent-file-'), 'not-a-dir')
    writeFileSync(file, '')
    const env = {AMCTL_CACHE_DIR: join(file, 'cache')}
    const error = rememberRecent(env, [run('run_1')], NOW)
    expect(error?.message).toMatch(/^cannot create directory .*not-a-dir.cache: .*\(ENOTDIR\)$/)
    expect(readRecent(env, NOW).runs).toEqual([])
  })

  it('sightingsOfRuns: the runs of a list and their eval sets; an item that is not a run is passed over', () => {
    const runs = [
      {id: 'run_1', status: 'failed', evalSetId: 'es_1'},
      null,
      7,
      {status: 'queued'},
      {id: 'run_2', status: 'queued', evalSetId: null},
    ] as unknown as Run[]
    expect(sightingsOfRuns('acme', runs)).toEqual([
      {kind: 'runs', id: 'run_1', org: 'acme', note: 'failed, es_1'},
      {kind: 'runs', id: 'run_2', org: 'acme', note: 'queued'},
      {kind: 'evalSets', id: 'es_1', org: 'acme'},
    ])
  })
})
