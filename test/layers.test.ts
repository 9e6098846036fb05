import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, normalize, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

// The rooms of src/ and their floors (CONTRIBUTING.md, "The layers"): an import goes to the same
// room or down, never up; api/ and input/ share a floor and do not import each other. The dev
// server is a room of its own that only `dev server` loads; a command topic never imports
// another topic's files.
const FLOORS: Record<string, number> = {contract: 0, core: 1, api: 2, input: 2, output: 3, base: 4, gate: 5, commands: 6}
const DEV_SERVER_MAY_IMPORT = new Set(['contract', 'core'])
const DEV_SERVER_LOADER = 'src/commands/dev/server.ts'

const root = join(import.meta.dirname, '..')
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )

/** Every relative import of every file of src/: [from, to], paths relative to the repository. */
function imports(): Array<[string, string]> {
  const edges: Array<[string, string]> = []
  for (const file of walk('src')) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const match of text.matchAll(/(?:\bfrom|\bimport\(|^import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      edges.push([file, normalize(join(dirname(file), match[1])).replace(/\.js$/, '.ts')])
    }
  }
  return edges
}

/** The room of a path: src/<room>/…, or the commands' topic for `topic`. */
const roomOf = (path: string): string => path.split('/')[1]?.replace(/\.ts$/, '') ?? path
const topicOf = (path: string): string | undefined => (roomOf(path) === 'commands' ? path.split('/')[2]?.replace(/\.ts$/, '') : undefined)

describe('the layers of src/', () => {
  const edges = imports()

  it('finds the imports it judges (the scan is not empty)', () => {
    expect(edges.length).toBeGreaterThan(300)
    expect(edges).toContainEqual(['src/commands/runs/watch.ts', 'src/gate/wait.ts'])
  })

  it('every import goes to the same room or to a lower floor', () => {
    const upward = edges.filter(([from, to]) => {
      const a = roomOf(from)
      const b = roomOf(to)
      // (an import that leaves src/ is the next test's matter)
      if (!to.startsWith('src/')) return false
      if (a === b || a === 'devserver' || b === 'devserver' || b === 'types') return false
      return !(a in FLOORS) || !(b in FLOORS) || FLOORS[b] >= FLOORS[a]
    })
    expect(upward.map(([from, to]) => `${from} -> ${to}`)).toEqual([])
  })

  it('no relative import leaves src/: a package is imported by its name, never by a path into node_modules', () => {
    // a file of a dependency's internals is not its API: a patch release may move or change it
    const outside = edges.filter(([, to]) => !to.startsWith('src/'))
    expect(outside.map(([from, to]) => `${from} -> ${to}`)).toEqual([])
  })

  it('the dev server is its own room: it imports only the contract and core, and only `dev server` imports it', () => {
    const wrong = edges.filter(([from, to]) => {
      if (roomOf(from) === 'devserver') return roomOf(to) !== 'devserver' && !DEV_SERVER_MAY_IMPORT.has(roomOf(to))
      return roomOf(to) === 'devserver' && from !== DEV_SERVER_LOADER
    })
    expect(wrong.map(([from, to]) => `${from} -> ${to}`)).toEqual([])
  })

  it("no command topic imports another topic's files", () => {
    const across = edges.filter(([from, to]) => topicOf(from) !== undefined && topicOf(to) !== undefined && topicOf(from) !== topicOf(to))
    expect(across.map(([from, to]) => `${from} -> ${to}`)).toEqual([])
  })

  it('the gate sits between base and the commands: runs watch and evals run reach it, nothing below does', () => {
    const intoGate = edges.filter(([from, to]) => roomOf(to) === 'gate' && roomOf(from) !== 'gate').map(([from]) => relative('src', from))
    expect(new Set(intoGate.map((path) => path.split('/')[0]))).toEqual(new Set(['commands']))
  })

  it('inside the gate, a file imports only the files CONTRIBUTING.md lists below it (a type aside), and it lists every file', () => {
    // the block of CONTRIBUTING.md that begins with the gate's top file: its names, in order (`reports/` is every report)
    const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')
    const block = /```text\n(launches\.ts[\s\S]*?)```/.exec(contributing)?.[1] ?? ''
    const order = [...block.matchAll(/\b(reports\/|[a-z-]+\.ts)/g)].map((m) => m[1])
    const rank = (path: string) => {
      const name = path.replace(/^src\/gate\//, '')
      return order.indexOf(name.startsWith('reports/') ? 'reports/' : name)
    }
    const files = walk('src/gate')
    expect(
      files.filter((file) => rank(file) < 0),
      'files of src/gate/ the list does not name',
    ).toEqual([])
    const up = files.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/^import (type )?[^;]*?from '(\.{1,2}\/[^']+)'/gm)]
        .filter(([, type]) => type === undefined)
        .map(([, , to]) => normalize(join(dirname(file), to)).replace(/\.js$/, '.ts'))
        .filter(
          (to) =>
            to.startsWith('src/gate/') && rank(to) <= rank(file) && !(rank(to) === rank(file) && to !== file && file.includes('/reports/')),
        )
        .map((to) => `${file} -> ${to}`),
    )
    expect(up).toEqual([])
  })
})

// What a run takes from the world comes in as parameters, as gh's commands take their Factory's
// fields (issue 24 §5, issue 31 §1): the environment, the streams, the clock (the time of day
// too), the signals and the transport are made once where a run starts and handed down, so a test
// hands in its own and no code reaches past its arguments. (The dev server is its own room, with
// its own options, which `dev server` fills from its world; bin/ holds the entry points.)
const WORLD_MADE = 'src/base/world.ts'
/** where the system clock is defined (the world chooses it) */
const CLOCK_MADE = 'src/core/clock.ts'
/** the entry bin/run.cjs hands `__complete` to, without the CLI: it reads its world itself, once */
const COMPLETE_ENTRY = 'src/commands/autocomplete/shared/main.ts'
/** the one file that makes the process's real streams */
const STREAMS_MADE = 'src/output/io.ts'

/** `file`'s text, its comments dropped. */
const code = (file: string): [string, string] => [
  file,
  readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1'),
]

/** Every file of src/ outside the dev server, its comments dropped. */
function sources(): Array<[string, string]> {
  return walk('src')
    .filter((file) => roomOf(file) !== 'devserver')
    .map(code)
}

/** Every file of src/, the dev server's included, its comments dropped. */
const everySource = (): Array<[string, string]> => walk('src').map(code)

/** The harness of the tests: test/helpers/, every helpers.ts, and the setup files. */
const testHelpers = (): Array<[string, string]> =>
  walk('test')
    .filter(
      (file) =>
        file.startsWith('test/helpers/') || file.endsWith('/helpers.ts') || /^test\/(?:setup|global-setup|fresh-file)\.ts$/.test(file),
    )
    .map(code)
const where = (found: Array<[string, string]>, pattern: RegExp) =>
  found.flatMap(([file, text]) => text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])))

describe('the world comes in as parameters: the environment, the streams, the clock', () => {
  const files = sources()

  it('finds the files it judges (the scan is not empty)', () => {
    expect(files.length).toBeGreaterThan(100)
    expect(files.map(([file]) => file)).toContain(STREAMS_MADE)
  })

  it('no parameter falls back to process.env (a default, or `?? process.env`)', () => {
    expect(where(files, /(?:[(,{]\s*\w+\??\s*(?::[^=(),]+)?=|\?\?|\|\|)\s*process\.env\b/)).toEqual([])
  })

  it('process.env is read only where a run starts: the command world, and `__complete`', () => {
    expect(
      where(
        files.filter(([file]) => file !== WORLD_MADE && file !== COMPLETE_ENTRY),
        /\bprocess\.env\b/,
      ),
    ).toEqual([])
  })

  it('only src/output/io.ts touches the process streams (process.stdout, stderr, stdin), and `__complete`', () => {
    expect(
      where(
        files.filter(([file]) => file !== STREAMS_MADE && file !== COMPLETE_ENTRY),
        /\bprocess\.std(?:out|err|in)\b/,
      ),
    ).toEqual([])
  })

  it('the real clock is chosen only where the command world is made: nothing else falls back to it', () => {
    expect(
      where(
        files.filter(([file]) => file !== WORLD_MADE && file !== CLOCK_MADE),
        /\bsystemClock\b|\bsetClock\b|\bclock\(\)/,
      ),
    ).toEqual([])
  })
})

describe('the world is the one way in for the clock, the signals and the network (every file of src/, and the test helpers)', () => {
  const all = everySource()
  const helpers = testHelpers()

  it('finds the files it judges (the scan is not empty)', () => {
    expect(all.map(([file]) => file)).toEqual(expect.arrayContaining(['src/devserver/index.ts', 'src/gate/wait.ts', CLOCK_MADE]))
    expect(helpers.map(([file]) => file)).toEqual(expect.arrayContaining(['test/helpers/cli.ts', 'test/e2e/helpers.ts', 'test/setup.ts']))
  })

  it('the time of day is read only by the clock the world hands out: no Date.now(), new Date() or a timer of the process elsewhere in src/', () => {
    // (`new Date(value)` reads a given time; `__complete` makes its own world, without the CLI's)
    const reads = /\bDate\.now\b|\bnew Date\(\s*\)|\bperformance\.now\b|\bprocess\.hrtime\b/
    expect(
      where(
        all.filter(([file]) => file !== CLOCK_MADE && file !== COMPLETE_ENTRY),
        reads,
      ),
    ).toEqual([])
  })

  it('the test helpers take the time of day from a clock too (a fake one, or the system clock the world hands out): no Date.now() or new Date()', () => {
    expect(where(helpers, /\bDate\.now\b|\bnew Date\(\s*\)/)).toEqual([])
  })

  it("no listener on the process's signals or its exit outside the world: Ctrl-C and the exit come as the world's Signals", () => {
    const listens = /\bprocess\.(?:on|once|off|addListener|removeListener|prependListener|prependOnceListener)\(/
    expect(
      where(
        all.filter(([file]) => file !== WORLD_MADE),
        listens,
      ),
    ).toEqual([])
    expect(where(helpers, listens)).toEqual([])
  })

  it('requests go out through the transport the world hands down: only the world chooses the network', () => {
    expect(
      where(
        all.filter(([file]) => file !== WORLD_MADE && file !== 'src/core/http/transport.ts'),
        /\bnetworkTransport\b/,
      ),
    ).toEqual([])
    // node:http and undici are reached through ./transport.ts alone
    expect(
      where(
        all.filter(([file]) => !file.startsWith('src/core/http/') && roomOf(file) !== 'devserver'),
        /from 'undici'|import\('undici'\)|from 'node:https?'|import\('node:https?'\)/,
      ),
    ).toEqual([])
  })
})
