import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {parse} from 'yaml'
import {ROOT} from './cli.js'

/**
 * The CI examples of examples/ci/ (GitHub Actions workflows and a GitLab CI job), parsed as
 * YAML, with the shell lines that run amctl: the unit test checks what they hold, the end-to-end
 * suite runs those lines against the dev server.
 */

export const CI_EXAMPLES = ['github-actions.yml', 'github-baseline.yml', 'github-baseline-cache.yml', 'gitlab-ci.yml'] as const
export type CiExample = (typeof CI_EXAMPLES)[number]

/** The example's file parsed (the `yaml` package: a YAML error fails the test that reads it). */
export function ciExample(name: CiExample): any {
  return parse(readFileSync(join(ROOT, 'examples', 'ci', name), 'utf8'))
}

/** The shell lines of the example, in order: GitHub's `run:` steps, GitLab's `script:` lines. */
export function shellLines(name: CiExample): string[] {
  const doc = ciExample(name)
  if (name.startsWith('github-')) {
    return Object.values(doc.jobs as Record<string, {steps: Array<{run?: string}>}>).flatMap((job) =>
      job.steps.flatMap((step) => (step.run === undefined ? [] : step.run.split('\n'))),
    )
  }
  return Object.values(doc as Record<string, {script?: string[]}>).flatMap((job) => job.script ?? [])
}

/** The lines that run amctl itself (not its install). */
export function amctlLines(name: CiExample): string[] {
  return shellLines(name)
    .map((line) => line.trim())
    .filter((line) => line.startsWith('amctl '))
}
