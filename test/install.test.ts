import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'
import {sealedEnv} from './helpers/env.js'

// Issue 25, section 1: nothing in the repository tells a reader to install amctl by a name the
// project does not own. `npm install -g amctl` would install whatever a stranger published
// under that name, with AMCTL_TOKEN in its environment. A line that installs or runs a package
// from a registry (npm install/i/add, npx, npm exec, pnpm, yarn, bunx) and names amctl must name
// package.json's scoped name at an exact version; a file (a release's tarball, checked against
// SHA256SUMS) or a git URL is not a registry name.

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {name: string; version: string}
const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/

/** The commands that take registry packages: the words before the package, and whether every word after is one. */
const INSTALLERS: Array<{command: RegExp; all: boolean}> = [
  {command: /\bnpm\s+(?:(?:-g|--global)\s+)?(?:install|i|add|isntall|in|ins|inst|insta|instal|isnt|isnta|isntal)\b/g, all: true},
  {command: /\b(?:npx|bunx|npm\s+(?:exec|x)|pnpm\s+(?:dlx|exec)|yarn\s+dlx|bun\s+x)\b/g, all: false},
  {command: /\b(?:pnpm\s+(?:add|install|i)|yarn\s+(?:global\s+)?add|bun\s+(?:add|install|i))\b/g, all: true},
]

/** The problem with one package spec that names amctl, or undefined when it names another package, a file, a URL or package.json's own name at an exact version. */
function specProblem(spec: string): string | undefined {
  const word = spec.replace(/^['"]|['"]$/g, '')
  const registry = /^(?:(@[a-z0-9][a-z0-9._~-]*)\/)?([a-z0-9][a-z0-9._~-]*)(?:@(.+))?$/.exec(word)
  if (!registry || word.endsWith('.tgz')) return undefined
  const [, scope, name, version] = registry
  const full = scope ? `${scope}/${name}` : name
  if (name !== 'amctl' && full !== pkg.name) return undefined
  if (full !== pkg.name) return `${word}: a name this project does not own (package.json names ${pkg.name})`
  if (version === undefined || !EXACT.test(version)) return `${word}: not pinned to a version (${pkg.name}@${pkg.version})`
  return undefined
}

/** Each install of amctl by a registry name the line makes that is not package.json's name at an exact version. */
function unownedInstalls(line: string): string[] {
  const problems: string[] = []
  for (const {command, all} of INSTALLERS) {
    for (const match of line.matchAll(command)) {
      // the words up to the end of the shell command (or the Markdown code span) that holds it
      const rest = line.slice((match.index ?? 0) + match[0].length).split(/[;&|#`)]|\s--\s/)[0]
      const words = rest.split(/\s+/).filter((word) => word !== '' && !word.startsWith('-'))
      for (const word of all ? words : words.slice(0, 1)) {
        const problem = specProblem(word)
        if (problem) problems.push(problem)
      }
    }
  }
  return problems
}

describe('no install of amctl by a name the project does not own', () => {
  it.each([
    'npm install -g amctl',
    'npm i -g amctl',
    'npm install --global amctl@0.1.0',
    'npm -g install amctl',
    'npx amctl runs list',
    'npx -y amctl@latest --version',
    '`npx amctl`',
    'npm exec amctl -- --version',
    'yarn global add amctl',
    'pnpm dlx amctl',
    `npm install -g ${pkg.name}`,
    `npm install -g ${pkg.name}@latest`,
    `npm install -g @someone-else/amctl@${pkg.version}`,
    `  - run: npm install -g amctl && amctl --version`,
  ])('%s: found', (line) => {
    expect(unownedInstalls(line)).toHaveLength(1)
  })

  it.each([
    `npm install -g ${pkg.name}@${pkg.version}`,
    `npx ${pkg.name}@${pkg.version} --version`,
    'npm install -g ./agent-measurement-amctl-0.1.0.tgz',
    'npm install -g --prefix ~/.local ./release/agent-measurement-amctl-0.1.0.tgz',
    'npm install -g git+<repository>',
    'npm install && npm run demo',
    'npm i amctl-helper',
    'npx vitest run',
    'install -m 755 amctl-linux-x64 ~/.local/bin/amctl',
  ])('%s: not an install of an unowned name', (line) => {
    expect(unownedInstalls(line)).toEqual([])
  })

  it('package.json names a scoped package (a scope only its owner can publish into); the command stays amctl', () => {
    expect(pkg.name).toMatch(/^@[a-z0-9-]+\/amctl$/)
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin).toEqual({amctl: './bin/run.cjs'})
  })

  it('no file of the repository installs amctl by a name the project does not own, or without a version', () => {
    const found: string[] = []
    for (const {file, text} of repositoryFiles()) {
      for (const [i, line] of text.split('\n').entries()) {
        for (const problem of unownedInstalls(line)) found.push(`${file}:${i + 1}: ${problem}`)
      }
    }
    expect(found).toEqual([])
  })
})

describe("the project's home, said one way (docs/install.md#where-amctl-comes-from)", () => {
  it('every file names the GitHub repository as <owner>/amctl, so one replacement settles it (tests use owners of their own)', () => {
    const found: string[] = []
    for (const {file, text} of repositoryFiles().filter(({file}) => !file.startsWith('test/'))) {
      for (const m of text.matchAll(/github\.com\/([^/\s"'`)]+)\/amctl\b|(?:uses:\s*|--repo\s+)([^/\s"'`]+)\/amctl\b/g)) {
        const owner = m[1] ?? m[2]
        if (owner !== '<owner>') found.push(`${file}: ${m[0]}`)
      }
    }
    expect(found).toEqual([])
  })

  it('in Markdown, <owner> is only ever inside code (bare, it would be an HTML tag nobody sees)', () => {
    const found: string[] = []
    for (const {file, text} of repositoryFiles().filter(({file}) => file.endsWith('.md'))) {
      const prose = text
        .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
        .replace(/(`+)[\s\S]*?\1/g, '')
        .replace(/<!--[\s\S]*?-->/g, '')
      if (prose.includes('<owner>')) found.push(file)
    }
    expect(found).toEqual([])
  })

  it("every pinned version of amctl in the docs and examples is package.json's", () => {
    const found: string[] = []
    const pinned =
      /@agent-measurement\/amctl@(\d[^\s`"']*)|agent-measurement-amctl-(\d[^\s`"']*?)\.tgz|amctl\/releases\/download\/v(\d[^/\s`"']*)/g
    for (const {file, text} of repositoryFiles().filter(({file}) => /^(README\.md|CONTRIBUTING\.md|docs\/|examples\/)/.test(file))) {
      for (const m of text.matchAll(pinned)) {
        const version = m[1] ?? m[2] ?? m[3]
        if (version !== pkg.version) found.push(`${file}: ${m[0]} (package.json: ${pkg.version})`)
      }
    }
    expect(found).toEqual([])
  })
})

/** Every text file git has or would add, but this one (whose cases say what the others must not). */
function repositoryFiles(): Array<{file: string; text: string}> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: sealedEnv(),
  })
    .split('\0')
    .filter((file) => file !== '' && file !== 'test/install.test.ts')
  expect(files.length).toBeGreaterThan(100)
  const texts: Array<{file: string; text: string}> = []
  for (const file of files) {
    let text: string
    try {
      text = readFileSync(join(ROOT, file), 'utf8')
    } catch {
      continue // listed by git, deleted in the work tree
    }
    if (!text.includes('\0')) texts.push({file, text})
  }
  return texts
}
