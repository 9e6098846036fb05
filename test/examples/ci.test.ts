import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readAction} from '../helpers/action-runner.js'
import {amctlLines, ciExample, shellLines} from '../helpers/ci-examples.js'
import {ROOT} from '../helpers/cli.js'

// examples/ci/: the GitHub Actions workflow and the GitLab CI job that docs/ci.md shows. The
// end-to-end suite runs them against the dev server: the GitHub one's action step as a runner
// would and the GitLab job's whole script, with a release built by `npm run release`
// (test/release/action.test.ts), and the GitLab job's amctl line (test/e2e/commands/ci.test.ts).

/** GitHub Actions expressions, as the workflow spells them (not JavaScript templates). */
const expression = (text: string): string => `$\{{ ${text} }}`

const GATE = ['--wait', '--min-score', '--baseline history', '--junit reports/evals.xml', '--summary reports/evals.md']
const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}

describe('examples/ci', () => {
  it('GitHub Actions: one step, the action of this repository, with the gate as its inputs; nothing else installs amctl', () => {
    const job = ciExample('github-actions.yml').jobs.evals
    const uses = job.steps.filter((step: any) => /\/amctl@/.test(step.uses ?? ''))
    expect(uses).toHaveLength(1)
    // <owner>: the placeholder docs/install.md#where-amctl-comes-from explains; v0, the action's major version
    expect(uses[0].uses).toBe('<owner>/amctl@v0')
    expect(uses[0].with).toEqual({
      'eval-set': 'es_acme_search',
      'wait-timeout': '30m',
      'min-score': 0.5,
      baseline: 'history',
      junit: 'reports/evals.xml',
      summary: 'reports/evals.md',
    })
    const inputs = Object.keys(readAction(join(ROOT, 'action.yml')).inputs)
    for (const name of Object.keys(uses[0].with)) expect(inputs).toContain(name)
    expect(shellLines('github-actions.yml')).toEqual([])
  })

  it('GitHub Actions: the token from a secret, the JUnit report published and the reports kept even when the gate fails', () => {
    const doc = ciExample('github-actions.yml')
    const job = doc.jobs.evals
    expect(job.env.AMCTL_TOKEN).toBe(expression('secrets.AMCTL_TOKEN'))
    const publish = job.steps.find((step: any) => step.uses?.startsWith('mikepenz/action-junit-report@'))
    expect(publish).toMatchObject({if: expression('!cancelled()'), with: {report_paths: 'reports/evals.xml'}})
    const keep = job.steps.find((step: any) => step.uses?.startsWith('actions/upload-artifact@'))
    expect(keep).toMatchObject({if: expression('!cancelled()'), with: {path: 'reports/'}})
    expect(doc.permissions.checks).toBe('write')
    // the action's comment on the pull request
    expect(doc.permissions['pull-requests']).toBe('write')
  })

  it("GitLab CI: the executable of one pinned release, checked against that release's SHA256SUMS before it is installed; one amctl line gates", () => {
    const job = ciExample('gitlab-ci.yml').evals
    expect(job.variables.AMCTL_RELEASE_URL).toBe(`https://github.com/<owner>/amctl/releases/download/v${version}`)
    const lines = shellLines('gitlab-ci.yml')
    const download = lines.findIndex(
      (line) => line.startsWith('curl ') && line.includes('"$AMCTL_RELEASE_URL/amctl-linux-x64" "$AMCTL_RELEASE_URL/SHA256SUMS"'),
    )
    const check = lines.indexOf('sha256sum --check --ignore-missing SHA256SUMS')
    const install = lines.findIndex((line) => line.startsWith('install ') && line.includes('amctl-linux-x64'))
    expect([download, check, install].every((i) => i >= 0)).toBe(true)
    expect(download < check && check < install).toBe(true)
    const [gate] = amctlLines('gitlab-ci.yml')
    expect(amctlLines('gitlab-ci.yml')).toHaveLength(1)
    for (const flag of GATE) expect(gate).toContain(flag)
  })

  it('GitLab CI: artifacts:reports:junit is the --junit file, kept when the job fails', () => {
    const job = ciExample('gitlab-ci.yml').evals
    expect(job.artifacts).toMatchObject({when: 'always', reports: {junit: 'reports/evals.xml'}, paths: ['reports/']})
    expect(job.variables).not.toHaveProperty('AMCTL_TOKEN')
  })
})
