import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {Lexer, type Tokens} from 'marked'
import {beforeAll, describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'
import {tempDir} from './helpers/temp.js'
import {sealedEnv} from './helpers/env.js'

// CONTRIBUTING.md's walk-throughs ("Adding an endpoint", "Adding a figure"), run: each one's
// blocks applied in order to a copy of this repository (the working tree as it is, its packages
// linked, not copied), its commands run there, the files they change compared with the list it
// ends with; then a piece left out, failing the check that names it. The text is the test's
// only source of the steps, so the two cannot drift apart.
// a build, a type-check, a lint and three test runs of the copy: the machine's time, not amctl's.
// On 2 cores beside three busy processes it took 83 s alone, and more than 10 minutes in the
// e2e project's run beside its other files and others' work (load average 26)
const SLOW = {timeout: 1_800_000}

interface Block {
  lang: string
  /** the file a block is about (`json src/contract/openapi.json`), if it names one */
  path?: string
  text: string
}

/** The fenced blocks of a section of CONTRIBUTING.md, in order. */
function walkthroughBlocks(section: string): Block[] {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')
  const start = text.indexOf(`\n${section}\n`)
  const end = text.indexOf('\n## ', start + 1)
  expect(start, `CONTRIBUTING.md has a section "${section}"`).toBeGreaterThan(0)
  return Lexer.lex(text.slice(start, end))
    .filter((token): token is Tokens.Code => token.type === 'code')
    .map((token) => {
      const [lang, path] = (token.lang ?? '').split(/\s+/)
      return {lang, path, text: token.text}
    })
}

/** `source`'s members added to `target` (objects merged, everything else set). */
function merge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const old = target[key]
    if (isObject(old) && isObject(value)) merge(old, value)
    else target[key] = value
  }
}
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A copy of the working tree (what git tracks and what it does not ignore) as a repository of its own, its packages linked. */
function copyOfRepository(): string {
  const copy = join(tempDir('amctl-walkthrough-'), 'amctl')
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: sealedEnv(),
  })
  for (const file of files.split('\0').filter((name) => name !== '' && existsSync(join(ROOT, name)))) {
    mkdirSync(dirname(join(copy, file)), {recursive: true})
    writeFileSync(join(copy, file), readFileSync(join(ROOT, file)))
  }
  // node_modules of its own whose packages are links to this one's: what the copy's tools keep
  // there (vitest's module cache, npm run generate's scratch bundles) stays apart from the runs of
  // this checkout, which read theirs at the same time
  mkdirSync(join(copy, 'node_modules'))
  for (const name of readdirSync(join(ROOT, 'node_modules')).filter((entry) => !entry.startsWith('.') || entry === '.bin')) {
    symlinkSync(join(ROOT, 'node_modules', name), join(copy, 'node_modules', name))
  }
  git(copy, 'init', '-q')
  git(copy, 'add', '-A')
  git(copy, '-c', 'user.name=walk-through', '-c', 'user.email=walk-through@amctl.test', 'commit', '-q', '-m', 'before')
  return copy
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {cwd, encoding: 'utf8', env: environment(cwd)})
}

/** The environment of the walk-through's commands: the sealed one (./helpers/env.ts) with a home and temp directory of its own. */
function environment(copy: string): Record<string, string> {
  const home = join(dirname(copy), 'home')
  const tmp = join(dirname(copy), 'tmp')
  mkdirSync(home, {recursive: true})
  mkdirSync(tmp, {recursive: true})
  return sealedEnv({
    HOME: home,
    TMPDIR: tmp,
    // the build is part of `npm run docs` there; npm stays off the network
    AMCTL_TEST_BUILD: 'skip',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
  })
}

/** Runs a command line of the walk-through in the copy: its exit code and output. */
function sh(copy: string, line: string): {status: number | null; output: string} {
  const result = spawnSync('sh', ['-c', line], {cwd: copy, env: environment(copy), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024})
  return {status: result.status, output: `${result.stdout}${result.stderr}`}
}

/**
 * Applies a walk-through's blocks in order to `copy`, runs its commands there (each must pass),
 * and holds the files it changed to the list it ends with: the files it wrote by hand.
 */
function walk(copy: string, blocks: Block[]): Set<string> {
  const edited = new Set<string>()
  for (const block of blocks) {
    if (block.lang === 'sh') {
      for (const line of block.text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))) {
        const {status, output} = sh(copy, line)
        if (status !== 0) expect.fail(`\`${line}\` failed (exit ${status}) after the walk-through's edits:\n${output.slice(-6000)}`)
      }
    } else if (block.lang === 'diff') {
      const paths = [...block.text.matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1])
      const applied = spawnSync('git', ['apply', '--recount', '-'], {
        cwd: copy,
        input: `${block.text}\n`,
        encoding: 'utf8',
        env: environment(copy),
      })
      if (applied.status !== 0) expect.fail(`the walk-through's diff of ${paths.join(', ')} does not apply: ${applied.stderr}`)
      for (const path of paths) edited.add(path)
    } else if (block.path !== undefined) {
      const file = join(copy, block.path)
      if (block.lang === 'json' && existsSync(file)) {
        const document = JSON.parse(readFileSync(file, 'utf8'))
        merge(document, JSON.parse(block.text))
        writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`)
      } else {
        expect(existsSync(file), `${block.path} is a new file in the walk-through`).toBe(false)
        mkdirSync(dirname(file), {recursive: true})
        writeFileSync(file, `${block.text}\n`)
      }
      edited.add(block.path)
    }
  }
  // the list it ends with is what changed: the hand-written files and what was generated from them
  const listed = blocks.filter((block) => block.lang === 'text').at(-1)?.text ?? ''
  const changed = git(copy, 'status', '--short', '--untracked-files=all')
  const byPath = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .sort((a, b) => a.slice(3).localeCompare(b.slice(3)))
  expect(byPath(changed)).toEqual(byPath(listed))
  for (const path of edited) expect(listed).toContain(path)
  return edited
}

describe("CONTRIBUTING.md's walk-through: an endpoint added by its steps", () => {
  const blocks = walkthroughBlocks('## Adding an endpoint')
  let copy: string

  beforeAll(() => {
    copy = copyOfRepository()
  })

  it('applies, and every check it runs passes: six files written by hand', SLOW, () => {
    expect(walk(copy, blocks).size, 'the files the walk-through writes by hand').toBe(6)
  })

  it("without the dev server's handler, the end-to-end test fails naming the operation (501 not_implemented)", SLOW, () => {
    const handler = blocks.find((block) => block.lang === 'diff' && block.text.includes('src/devserver/'))
    expect(handler, 'the walk-through has a diff of the dev server').toBeDefined()
    const reversed = spawnSync('git', ['apply', '--recount', '-R', '-'], {
      cwd: copy,
      input: `${handler?.text}\n`,
      encoding: 'utf8',
      env: environment(copy),
    })
    expect(reversed.status, reversed.stderr).toBe(0)
    try {
      const {status, output} = sh(copy, 'npx vitest run test/e2e/commands/runs-logs.test.ts')
      expect(status).not.toBe(0)
      expect(output).toContain('the dev server has no handler for listRunLogs')
      expect(output).toContain('(not_implemented, HTTP 501)')
    } finally {
      spawnSync('git', ['apply', '--recount', '-'], {cwd: copy, input: `${handler?.text}\n`, encoding: 'utf8', env: environment(copy)})
    }
  })

  it('without the unit test, test/pieces.test.ts fails naming the command and what to add', SLOW, () => {
    const unit = join(copy, 'test/commands/runs/logs.test.ts')
    renameSync(unit, `${unit}.left-out`)
    try {
      const {status, output} = sh(copy, 'npx vitest run test/pieces.test.ts')
      expect(status).not.toBe(0)
      expect(output).toContain('amctl runs logs: no unit test. Add test/commands/runs/logs.test.ts')
    } finally {
      renameSync(`${unit}.left-out`, unit)
    }
  })
})

describe("CONTRIBUTING.md's walk-through: a figure added by its steps", () => {
  const blocks = walkthroughBlocks('## Adding a figure')
  let copy: string

  beforeAll(() => {
    copy = copyOfRepository()
  })

  it('applies, and every check it runs passes: one file of src/ written by hand (at most 4)', SLOW, () => {
    const edited = [...walk(copy, blocks)]
    expect(edited.filter((path) => path.startsWith('src/'))).toEqual(['src/gate/figures.ts'])
  })

  it('a test that holds every field of a row, not told the new value, fails naming the field', SLOW, () => {
    const told = blocks.find((block) => block.lang === 'diff' && block.text.includes('+++ b/test/commands/runs/watch.test.ts'))
    expect(told, 'the walk-through tells test/commands/runs/watch.test.ts the value').toBeDefined()
    const apply = (...flags: string[]) =>
      spawnSync('git', ['apply', '--recount', ...flags, '-'], {
        cwd: copy,
        input: `${told?.text}\n`,
        encoding: 'utf8',
        env: environment(copy),
      })
    const reversed = apply('-R')
    expect(reversed.status, reversed.stderr).toBe(0)
    try {
      const {status, output} = sh(copy, 'npx vitest run test/commands/runs/watch.test.ts')
      expect(status).not.toBe(0)
      expect(output).toContain('"baseline p95": "0.72"')
    } finally {
      apply()
    }
  })
})
