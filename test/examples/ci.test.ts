import {describe, expect, it} from 'vitest'
import {amctlLines, ciExample, shellLines} from '../helpers/ci-examples.js'

// examples/ci/: the GitHub Actions workflow and the GitLab CI job that docs/ci.md shows.
// The end-to-end suite runs their amctl lines against the dev server (test/e2e/ci.test.ts).

/** GitHub Actions expressions, as the workflow spells them (not JavaScript templates). */
const expression = (text: string): string => `$\{{ ${text} }}`

const GATE = ['--wait', '--min-score', '--baseline history', '--junit reports/evals.xml', '--summary reports/evals.md']

describe('examples/ci', () => {
  it.each(['github-actions.yml', 'gitlab-ci.yml'] as const)(
    '%s is YAML whose one amctl line launches, waits, gates and reports',
    (name) => {
      const lines = amctlLines(name)
      expect(lines).toHaveLength(1)
      for (const flag of GATE) expect(lines[0]).toContain(flag)
      expect(shellLines(name)).toContain('npm install -g amctl')
    },
  )

  it('GitHub Actions: the token from a secret, the JUnit report published and the reports kept even when the gate fails', () => {
    const doc = ciExample('github-actions.yml')
    const job = doc.jobs.evals
    expect(job.env.AMCTL_TOKEN).toBe(expression('secrets.AMCTL_TOKEN'))
    const publish = job.steps.find((step: any) => step.uses?.startsWith('mikepenz/action-junit-report@'))
    expect(publish).toMatchObject({if: expression('!cancelled()'), with: {report_paths: 'reports/evals.xml'}})
    const keep = job.steps.find((step: any) => step.uses?.startsWith('actions/upload-artifact@'))
    expect(keep).toMatchObject({if: expression('!cancelled()'), with: {path: 'reports/'}})
    expect(doc.permissions.checks).toBe('write')
  })

  it('GitLab CI: artifacts:reports:junit is the --junit file, kept when the job fails', () => {
    const job = ciExample('gitlab-ci.yml').evals
    expect(job.artifacts).toMatchObject({when: 'always', reports: {junit: 'reports/evals.xml'}, paths: ['reports/']})
    expect(job.variables).not.toHaveProperty('AMCTL_TOKEN')
  })
})
