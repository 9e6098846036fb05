import {spawnSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {pathToFileURL} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {expressionsIn, readAction} from './helpers/action-runner.js'
import {ROOT} from './helpers/cli.js'
import {tempDir} from './helpers/temp.js'
import {harness, sealedEnv} from './helpers/env.js'

// What GitHub runs: the two workflows (.github/workflows), the action (action.yml) and the
// example workflows users copy (github-*.yml in examples/ci/). actionlint checks the workflows (bin/actionlint.js, its
// WebAssembly build from npm) and shellcheck every shell script in them; the action's steps run
// end to end in test/release/action.test.ts.

const release = await import(pathToFileURL(join(ROOT, 'bin', 'release.js')).href)
const actionlint = await import(pathToFileURL(join(ROOT, 'bin', 'actionlint.js')).href)
const workflow = (name: string): any => parse(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8'))
const action = readAction(join(ROOT, 'action.yml'))

/** Every `run:` script of a workflow, of an example workflow (github-*.yml in examples/ci/) or of the action, named by where it is. */
function scripts(): Array<{where: string; run: string}> {
  const found: Array<{where: string; run: string}> = []
  for (const file of actionlint.workflowFiles() as string[]) {
    const name = relative(ROOT, file)
    for (const [id, job] of Object.entries<any>(parse(readFileSync(file, 'utf8')).jobs)) {
      for (const [i, step] of job.steps.entries()) if (step.run) found.push({where: `${name} ${id} step ${i + 1}`, run: step.run})
    }
  }
  for (const [i, step] of action.runs.steps.entries()) if (step.run) found.push({where: `action.yml step ${i + 1}`, run: step.run})
  // the functions the action's steps source
  found.push({where: 'action/lib.sh', run: readFileSync(join(ROOT, 'action', 'lib.sh'), 'utf8')})
  return found
}

/** shellcheck on PATH (Debian's package; .ci/run installs it, and CI demands it). */
const shellcheck = spawnSync('shellcheck', ['--version'], {env: sealedEnv()}).status === 0
if (!shellcheck && !harness.ci)
  console.warn('[github] shellcheck SKIPPED: not installed here (apt-get install shellcheck); .ci/run installs it.')

describe('the GitHub workflows', () => {
  // one actionlint process for the repository's files and a workflow with three mistakes (its
  // WebAssembly takes seconds to start)
  let findings: Array<{file: string; kind: string}>
  let bad: string
  beforeAll(() => {
    bad = join(tempDir('amctl-actionlint-'), 'bad.yml')
    writeFileSync(
      bad,
      [
        'on: pull_request',
        'jobs:',
        '  x:',
        '    runs-on: ubuntu-99.04',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '        with:',
        '          no-such-input: true',
        // untrusted text spliced into a script (spelled in two parts: it is not a JavaScript template)
        `      - run: echo "$\{{ github.event.pull_request.title }}"`,
        '',
      ].join('\n'),
    )
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'actionlint.js'), '--json', ...actionlint.workflowFiles(), bad], {
      cwd: ROOT,
      encoding: 'utf8',
      env: sealedEnv(),
    })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    findings = JSON.parse(run.stdout)
  }, 120_000)

  it('pass actionlint (npm run lint:workflows), the example workflows too', () => {
    expect(actionlint.workflowFiles().map((file: string) => relative(ROOT, file))).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/release.yml',
      'examples/ci/github-actions.yml',
      'examples/ci/github-baseline-cache.yml',
      'examples/ci/github-baseline.yml',
    ])
    expect(findings.filter((p) => !p.file.endsWith('bad.yml'))).toEqual([])
  })

  it('actionlint finds what is wrong: an unknown runner, an input an action does not have, untrusted text in a script', () => {
    expect(
      findings
        .filter((p) => p.file.endsWith('bad.yml'))
        .map((p) => p.kind)
        .sort(),
    ).toEqual(['action', 'expression', 'runner-label'])
  })

  it.runIf(shellcheck || harness.ci)(
    'every shell script of the workflows, of the example workflows and of the action passes shellcheck',
    () => {
      const dir = tempDir('amctl-shellcheck-')
      const problems: string[] = []
      for (const [i, {where, run}] of scripts().entries()) {
        const file = join(dir, `${i}.sh`)
        // as GitHub runs `shell: bash`: bash -e -o pipefail
        writeFileSync(file, `#!/usr/bin/env bash\nset -eo pipefail\n${run}`)
        const result = spawnSync('shellcheck', ['--shell=bash', '--format=gcc', file], {encoding: 'utf8', env: sealedEnv()})
        if (result.error) throw result.error
        if (result.status !== 0) problems.push(`${where}:\n${result.stdout}`)
      }
      expect(problems).toEqual([])
    },
  )

  it('no script holds an expression: every value reaches the shell through the environment, as data', () => {
    for (const {where, run} of scripts()) expect(expressionsIn(run), where).toEqual([])
  })

  it('ci.yml: .ci/run on pushes and pull requests on Linux; the unit and smoke suites on macOS and Windows', () => {
    const ci = workflow('ci.yml')
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push'])
    expect(ci.permissions).toEqual({contents: 'read'})
    expect(ci.jobs.linux['runs-on']).toMatch(/^ubuntu-/)
    expect(ci.jobs.linux.steps.map((s: any) => s.run).filter(Boolean)).toEqual(['bash .ci/run'])
    const other = ci.jobs['other-platforms']
    expect(other.strategy.matrix.os.map((os: string) => os.replace(/-.*/, '')).sort()).toEqual(['macos', 'windows'])
    const runs = other.steps.map((s: any) => s.run ?? '').join('\n')
    expect(runs).toContain('npx vitest run --project unit')
    expect(runs).toContain('npx vitest run --project e2e test/release/smoke.test.ts')
  })

  it('release.yml: on a version tag, one executable for each platform bin/release.js knows, each on a runner of its own', () => {
    const rel = workflow('release.yml')
    expect(rel.on).toEqual({push: {tags: ['v[0-9]+.[0-9]+.[0-9]+*']}})
    expect(rel.permissions).toEqual({contents: 'read'})
    const matrix = rel.jobs.executable.strategy.matrix.include as Array<{target: string; runner: string}>
    expect(matrix.map((m) => `amctl-${m.target}${m.target.startsWith('win') ? '.exe' : ''}`).sort()).toEqual(
      release.PLATFORMS.map((p: {platform: string; arch: string}) => release.executableName(p.platform, p.arch)).sort(),
    )
    expect(new Set(matrix.map((m) => m.runner)).size).toBe(matrix.length)
    expect(rel.jobs.executable.steps.map((s: any) => s.run ?? '').join('\n')).toContain('node bin/release.js --executable-from')
  })

  it('release.yml: SHA256SUMS, attestations, npm with provenance and the GitHub release, with write permissions in that one job', () => {
    const publish = workflow('release.yml').jobs.publish
    expect(publish.permissions).toEqual({contents: 'write', 'id-token': 'write', attestations: 'write'})
    const steps = publish.steps as any[]
    const runs = steps.map((s) => s.run ?? '').join('\n')
    expect(runs).toContain('sha256sum -- * >SHA256SUMS')
    expect(steps.some((s) => /^actions\/attest-build-provenance@/.test(s.uses ?? ''))).toBe(true)
    expect(runs).toMatch(/npm publish "release\/\$TARBALL" --provenance --access public/)
    expect(runs).toContain('gh release create "$GITHUB_REF_NAME" release/*')
    // the package names this repository: npm's provenance checks it
    expect(
      workflow('release.yml')
        .jobs.package.steps.map((s: any) => s.run ?? '')
        .join('\n'),
    ).toContain('node bin/release.js --tarball --repository "$GITHUB_REPOSITORY"')
  })
})

describe('action.yml', () => {
  it('every input is used by a step, every output is set by the step it names', () => {
    const text = JSON.stringify(action.runs.steps)
    for (const name of Object.keys(action.inputs)) expect(text, name).toContain(`inputs.${name} }}`)
    for (const [name, output] of Object.entries<any>(action.outputs)) {
      const [expression] = expressionsIn(output.value)
      const m = /^steps\.([a-z]+)\.outputs\.([a-z-]+)$/.exec(expression)
      expect(m, name).not.toBeNull()
      const step = action.runs.steps.find((s: any) => s.id === m![1])
      // (the artifact's URL is upload-artifact's own output)
      if (step.uses !== undefined) expect([step.uses, m![2]], name).toEqual(['actions/upload-artifact@v4', 'artifact-url'])
      else expect(step.run, name).toMatch(new RegExp(`^ *(if .*; then )?set_output ${m![2]} "`, 'm'))
    }
  })

  it('every output is written by set_output (action/lib.sh: the delimiter form), never by a line of its own', () => {
    for (const step of action.runs.steps.filter((s: any) => s.run)) {
      expect(step.run).not.toContain('GITHUB_OUTPUT')
      if (/\bset_output\b/.test(step.run)) expect(step.run).toMatch(/^ *source ".*\/action\/lib\.sh"$/m)
    }
  })

  it.each([
    ['docs/ci.md', '## 2. Gate pull requests'],
    ['docs/ci-reference.md', '## The GitHub Action'],
  ])(
    "%s's example of the action gates against a baseline file, as the example pull-request workflow does, using inputs the action has",
    (path, heading) => {
      const doc = readFileSync(join(ROOT, path), 'utf8')
      expect(doc).toContain(`\n${heading}\n`)
      const section = doc.slice(doc.indexOf(`\n${heading}\n`))
      const [, yaml] = /```yaml\n([\s\S]*?)```/.exec(section)!
      const step = (parse(yaml) as any[]).find((s) => /\/amctl@v\d+$/.test(s.uses ?? ''))
      // --baseline history alone must not gate pull requests (docs/ci-reference.md#gating-pull-requests-the-baseline-file)
      expect(step.with['baseline-file']).toMatch(/\.json$/)
      expect(step.with).not.toHaveProperty('baseline')
      // with a file, --max-drop is the smallest drop that matters (default 0), not a fixed bar
      expect(step.with).not.toHaveProperty('max-drop')
      for (const name of Object.keys(step.with)) expect(Object.keys(action.inputs)).toContain(name)
      expect(action.inputs.baseline.description).toMatch(/`history` \(.*recommended.*not alone for pull requests/)
      expect(action.inputs['max-drop'].default).toBe('')
      // a pull request's runs never reach the file: the action updates it on the default branch only, unless told
      expect(action.inputs['update-baseline'].default).toBe('auto')
    },
  )

  it('the inputs a workflow writes and the outputs it reads are the ones docs/ci-reference.md lists', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'ci-reference.md'), 'utf8')
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) expect(doc, name).toContain(`| \`${name}\` |`)
  })
})
