import {spawnSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {connect, createServer} from 'node:net'
import {Worker} from 'node:worker_threads'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import {environment} from './helpers/cli.js'
import {FILE_NAMES, MACHINE_NAMES, sealedEnv} from './helpers/env.js'

// The tests are sealed from the machine they run on (issue 31 §1): every environment a test makes
// is built from an allow-list (test/helpers/env.ts), never copied from the runner's, so that a CI
// runner's GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, CI, AMCTL_TOKEN, NO_COLOR or proxy changes
// nothing. .ci/run runs the suites with such an environment and checks the runner's files stay
// empty; this file holds the tree to the rule that makes it so.

const root = join(import.meta.dirname, '..')
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : /\.(?:ts|mjs|cjs|js)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )

/** Every file of test/, its comments dropped. */
const files: Array<[string, string]> = walk('test').map((file) => [
  file,
  readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1'),
])

/** The files that make the run's environment, and the two tests that set a variable in the process's on purpose. */
const MAY_TOUCH_PROCESS_ENV: Record<string, string> = {
  'test/helpers/env.ts': 'reads the allow-listed names and the harness switches, once',
  'test/setup.ts': "cuts the test process's environment down to the sealed one",
  'test/global-setup.ts': 'gives the run its private HOME and TMPDIR',
  'test/fresh-file.ts': 'gives each unit test file the environment its worker started with',
  'test/faults/report.mjs': 'a script that starts vitest (whose setup seals every test), not a test',
  'test/bin/build/plugins.test.ts': 'sets DEBUG in the process, which the bundled `debug` reads',
  'test/core/http/dispatcher.test.ts': "sets NO_PROXY in the process, to show the transport reads the run's environment only",
  'test/layers.test.ts': 'names process.env in the patterns it looks for in src/',
  'test/sealed.test.ts': "checks the test process's environment",
}

/** The text of the call that starts at `open` (an opening parenthesis), through its matching close. */
function callText(text: string, open: number): string {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1)
  }
  return text.slice(open)
}

describe('tests are sealed from the machine', () => {
  it('finds the files it judges (the scan is not empty)', () => {
    expect(files.length).toBeGreaterThan(150)
    expect(files.map(([file]) => file)).toContain('test/helpers/bin.ts')
  })

  it('no test reads process.env: environments come from test/helpers/env.ts (an allow-list)', () => {
    const touching = files.filter(([file, text]) => /\bprocess\.env\b/.test(text) && !(file in MAY_TOUCH_PROCESS_ENV)).map(([file]) => file)
    expect(touching).toEqual([])
  })

  it('every child process a test starts is given its environment (spawn, execFile, fork: never the inherited one)', () => {
    const bare: string[] = []
    for (const [file, text] of files) {
      if (file === 'test/faults/report.mjs') continue
      // (a call, or one through promisify: `promisify(execFile)(file, args, options)`)
      for (const match of text.matchAll(
        /(?:(?<![.\w])(?:spawn|spawnSync|execFile|execFileSync|execSync|fork)|promisify\((?:execFile|exec)\))\(/g,
      )) {
        const call = callText(text, (match.index ?? 0) + match[0].length - 1)
        if (!/\benv\b/.test(call)) bare.push(`${file}:${text.slice(0, match.index).split('\n').length}: ${call.split('\n')[0]}`)
      }
    }
    expect(bare).toEqual([])
  })

  it('a unit test runs in process: a program, a worker thread, a listening or a connecting socket is refused (test/in-process.ts)', () => {
    // (this file is a unit test: vitest.config.ts runs test/in-process.ts before it)
    expect(() => spawnSync(process.execPath, ['-e', '0'], {env: sealedEnv()})).toThrow(/a unit test runs in process/)
    expect(() => new Worker('0', {eval: true})).toThrow(/a unit test runs in process/)
    expect(() => createServer().listen(0)).toThrow(/a unit test runs in process/)
    expect(() => connect(9, '127.0.0.1')).toThrow(/a unit test runs in process/)
  })

  it("the test process's own environment holds only the allow-listed names (test/setup.ts cut the rest)", () => {
    const allowed = new Set([...MACHINE_NAMES, ...FILE_NAMES])
    expect(Object.keys(process.env).filter((name) => !allowed.has(name) && !name.startsWith('VITEST'))).toEqual([])
  })

  it("a command's environment and a child's hold only the allow-listed names, plus what the test sets", () => {
    expect(Object.keys(environment({NO_COLOR: '1'})).every((name) => [...MACHINE_NAMES, ...FILE_NAMES, 'NO_COLOR'].includes(name))).toBe(
      true,
    )
    expect(environment({AMCTL_CONFIG_DIR: undefined}).AMCTL_CONFIG_DIR).toBeUndefined()
    expect(Object.keys(sealedEnv()).every((name) => MACHINE_NAMES.includes(name))).toBe(true)
    expect(relative(root, sealedEnv().HOME ?? '')).not.toBe('')
  })
})
