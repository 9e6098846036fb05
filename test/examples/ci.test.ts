import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readAction} from '../helpers/action-runner.js'
import {amctlLines, ciExample, shellLines} from '../helpers/ci-examples.js'
import {ROOT} from '../helpers/cli.js'
import {interpolate} from '../helpers/expressions.js'

// examples/ci/: the GitHub Actions workflows and the GitLab CI job that docs/ci-reference.md shows. The
// end-to-end suite runs them against the dev server: the GitHub ones' jobs as a runner would
// (their shell steps, the action, the cache) and the GitLab job's whole script, with a release
// built by `npm run release` (test/release/action.test.ts), and the GitLab job's amctl line
// (test/e2e/commands/ci.test.ts).

/** GitHub Actions expressions, as the workflow spells them (not JavaScript templates). */
const expression = (text: string): string => `$\{{ ${text} }}`

const GATE = ['--wait', '--min-score', '--baseline history', '--junit reports/evals.xml', '--summary reports/evals.md']
const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}

const ACTION_INPUTS = Object.keys(readAction(join(ROOT, 'action.yml')).inputs)

/** The steps of a workflow's job that use amctl's action. */
const amctlSteps = (job: any): any[] => job.steps.filter((step: any) => /\/amctl@/.test(step.uses ?? ''))

describe('examples/ci', () => {
  it('GitHub Actions, pull requests: one step, the action of this repository, gating against the checked-out baseline file; nothing else installs amctl', () => {
    const job = ciExample('github-actions.yml').jobs.evals
    const uses = amctlSteps(job)
    expect(uses).toHaveLength(1)
    // <owner>: the placeholder docs/install.md#where-amctl-comes-from explains; v0, the action's major version
    expect(uses[0].uses).toBe('<owner>/amctl@v0')
    expect(uses[0].with).toEqual({
      'eval-set': 'es_acme_search',
      'wait-timeout': '30m',
      'min-score': 0.5,
      'baseline-file': 'evals/search-baseline.json',
      junit: 'reports/evals.xml',
      summary: 'reports/evals.md',
    })
    // the file comes from the checkout; a pull request never updates it (update-baseline: auto is false there)
    expect(job.steps.findIndex((step: any) => step.uses?.startsWith('actions/checkout@'))).toBeLessThan(job.steps.indexOf(uses[0]))
    expect(uses[0].with).not.toHaveProperty('update-baseline')
    for (const name of Object.keys(uses[0].with)) expect(ACTION_INPUTS).toContain(name)
    expect(shellLines('github-actions.yml')).toEqual([])
  })

  it('GitHub Actions, the default branch (github-baseline.yml): pushes to main gate and update the committed file through one pull request; by hand, the file anew from --repeat runs', () => {
    const doc = ciExample('github-baseline.yml')
    expect(doc.on.push).toEqual({branches: ['main']})
    expect(doc.permissions).toEqual({contents: 'write', 'pull-requests': 'write'})
    // one run at a time writes the update's branch, none cancelled mid-way
    expect(doc.concurrency).toEqual({group: 'evals-baseline'})
    const [gate] = amctlSteps(doc.jobs.update)
    expect(gate.with).toMatchObject({'baseline-file': expression('env.BASELINE'), 'min-score': 0.5})
    // auto, the action's default, is what updates here: true on the push to the default branch
    expect(gate.with).not.toHaveProperty('update-baseline')
    const propose = doc.jobs.update.steps.at(-1)
    expect(propose.uses).toBe('peter-evans/create-pull-request@v7')
    expect(propose.if).toBe(expression("!cancelled() && steps.evals.outputs.baseline-updated == 'true'"))
    expect(propose.with).toMatchObject({branch: expression('env.UPDATE_BRANCH'), 'add-paths': expression('env.BASELINE')})
    // the lines that say a group's level moved or it fails more come first (issue 35 §3), as
    // Markdown text: the body is Markdown, and their agents' and models' names are server text
    expect(propose.with.body.startsWith(`${expression('steps.evals.outputs.baseline-warnings-markdown')}\n\n`)).toBe(true)
    const [launch] = amctlSteps(doc.jobs.refresh)
    expect(launch.with.repeat).toBe(expression("inputs.launches || '10'"))
    expect(launch.with).not.toHaveProperty('baseline-file')
    expect(shellLines('github-baseline.yml')).toContain('amctl evals baseline save es_acme_search --file "$BASELINE" --runs "$EVALS_JSON"')
    for (const job of Object.values<any>(doc.jobs))
      for (const step of amctlSteps(job)) for (const name of Object.keys(step.with)) expect(ACTION_INPUTS).toContain(name)
  })

  it('GitHub Actions, the file in the cache (github-baseline-cache.yml): saved under a key with the run ID by the default branch only, restored by its prefix', () => {
    const doc = ciExample('github-baseline-cache.yml')
    const key = `${expression('env.BASELINE_KEY')}${expression('github.run_id')}-${expression('github.run_attempt')}`
    const restore = doc.jobs.gate.steps[0]
    expect(restore).toMatchObject({uses: 'actions/cache/restore@v4', with: {key, 'restore-keys': expression('env.BASELINE_KEY')}})
    const saves = Object.values<any>(doc.jobs).flatMap((job) => job.steps.filter((step: any) => step.uses === 'actions/cache/save@v4'))
    expect(saves.map((step) => step.with.key)).toEqual([key, key])
    // a pull request's gate never saves: the file changed only when the action updated it, which it does on a push to main
    expect(saves[0].if).toBe(expression("!cancelled() && steps.evals.outputs.baseline-updated == 'true'"))
    expect(doc.jobs.refresh.if).toBe("github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'")
    expect(doc.on.schedule).toHaveLength(1)
    for (const job of Object.values<any>(doc.jobs))
      for (const step of amctlSteps(job)) for (const name of Object.keys(step.with)) expect(ACTION_INPUTS).toContain(name)
  })

  it('GitHub Actions, the file in the cache: the runs that save it (pushes, the refresh) queue one at a time; pull requests do not wait', () => {
    const {group} = ciExample('github-baseline-cache.yml').concurrency
    const groupOf = (event_name: string, run_id: string) => interpolate(group, {github: {event_name, run_id}})
    // two pushes at once would restore the same file and each save it without the other's runs
    const savers = [groupOf('push', '1'), groupOf('push', '2'), groupOf('schedule', '3'), groupOf('workflow_dispatch', '4')]
    expect(new Set(savers).size).toBe(1)
    expect(savers[0]).not.toBe('')
    const pullRequests = [groupOf('pull_request', '5'), groupOf('pull_request', '6')]
    expect(new Set([...pullRequests, savers[0]]).size).toBe(3)
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
