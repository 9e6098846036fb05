import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {parse} from 'yaml'
import {bash, BASH_SHELL, CacheStore, githubContext, parseCommandFile, playCache, runnerOf, stepEnvironment} from './action-runner.js'
import {condition, interpolate, type JobStatus} from './expressions.js'
import {tempDir} from './temp.js'

/**
 * Plays one job of a GitHub Actions workflow (the examples of examples/ci/) as the runner does, on
 * this machine, for an event the test describes: the job's `if:`, its `env:` (with `secrets`),
 * then each step in order under its `if:` (no `if:` is `success()`), `run:` steps by bash (`bash
 * -e {0}`, or `bash --noprofile --norc -eo pipefail {0}` for `shell: bash`) in the workspace with
 * the runner's variables, GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH as in action-runner.ts, and
 * `continue-on-error`. `uses:` steps: actions/cache/restore and actions/cache/save on the test's
 * CacheStore (the scopes of the event's ref, its base branch and the default branch), and
 * actions/checkout, whose work the test has done (the workspace is the checkout); any other action
 * is the test's `uses` to play (the amctl action by action-runner.ts), or fails the run.
 * Expressions are GitHub's (./expressions.ts) on the contexts github, inputs (a
 * workflow_dispatch's), secrets, env, steps and runner.
 */

export interface WorkflowEvent {
  /** GITHUB_EVENT_NAME: push, pull_request, workflow_dispatch, schedule */
  name: string
  /** GITHUB_REF: refs/heads/main, refs/pull/7/merge */
  ref: string
  /** the event's payload (the file at GITHUB_EVENT_PATH; `github.event`) */
  payload: Record<string, unknown>
  /** GITHUB_BASE_REF, for a pull request: its base branch */
  baseRef?: string
  sha?: string
  runId?: string
  runAttempt?: string
}

/** What the test's `uses` gets to play an action the runner does not know. */
export interface UsesCall {
  uses: string
  /** the step's `with:`, evaluated */
  with: Record<string, string>
  /** the step's environment: the runner's variables, the job's `env:` and the step's, evaluated */
  env: Record<string, string>
  /** the job's runner directory (RUNNER_TEMP, HOME, the GITHUB_PATH file…), for runAction's `runnerDir` */
  runnerDir: string
  cacheStore: CacheStore
  githubToken: string
}

export interface UsesResult {
  success: boolean
  outputs: Record<string, string>
  stdout?: string
  stderr?: string
}

export interface RunJobOptions {
  /** the workflow file */
  file: string
  job: string
  event: WorkflowEvent
  workspace: string
  secrets?: Record<string, string>
  /** more of the runner's variables (GITHUB_API_URL, GITHUB_SERVER_URL…) */
  env?: Record<string, string>
  /** values put in place of the workflow's own `env:` ones (the control plane's URL an example names) */
  replaceEnv?: Record<string, string>
  cacheStore?: CacheStore
  /** `github.token`, the job's token */
  githubToken?: string
  uses?: (call: UsesCall) => Promise<UsesResult>
  timeoutMs?: number
}

export interface JobStepResult {
  id?: string
  name: string
  uses?: string
  outcome: 'success' | 'failure' | 'skipped'
  outputs: Record<string, string>
  stdout: string
  stderr: string
}

export interface JobResult {
  /** false when the job's `if:` left it out */
  ran: boolean
  success: boolean
  steps: JobStepResult[]
  cache: {restored: string[]; saved: string[]}
}

export function readWorkflow(file: string): any {
  return parse(readFileSync(file, 'utf8'))
}

export async function runJob(options: RunJobOptions): Promise<JobResult> {
  const workflow = readWorkflow(options.file)
  const job = workflow.jobs?.[options.job]
  if (job === undefined) throw new Error(`${options.file} has no job ${options.job}`)
  const runnerDir = tempDir('amctl-runner-')
  const {files, variables} = runnerOf(runnerDir, options.workspace)
  const {event} = options
  const eventPath = join(runnerDir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(event.payload))
  const repository = (event.payload.repository as {full_name?: string} | undefined)?.full_name ?? 'example/workflow'
  const base: Record<string, string> = {
    ...variables,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REF: event.ref,
    GITHUB_SHA: event.sha ?? '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REPOSITORY: repository,
    GITHUB_RUN_ID: event.runId ?? '1',
    GITHUB_RUN_ATTEMPT: event.runAttempt ?? '1',
    ...(event.baseRef === undefined ? {} : {GITHUB_BASE_REF: event.baseRef}),
    ...options.env,
  }
  const token = options.githubToken ?? ''
  const github = githubContext(base, token)
  const cacheStore = options.cacheStore ?? new CacheStore()
  const cache = {restored: [] as string[], saved: [] as string[]}
  const steps: Record<string, {outputs: Record<string, string>; outcome: string; conclusion: string}> = {}
  const contexts = (env: Record<string, string>) => ({
    github,
    inputs: (event.payload.inputs as Record<string, unknown> | undefined) ?? {},
    secrets: options.secrets ?? {},
    env,
    steps,
    runner: {os: base.RUNNER_OS, arch: base.RUNNER_ARCH, temp: base.RUNNER_TEMP},
  })
  const status: JobStatus = {failed: false}
  if (!condition(job.if, contexts({}), status)) return {ran: false, success: true, steps: [], cache}
  const jobEnv: Record<string, string> = {}
  for (const [name, value] of Object.entries({...workflow.env, ...job.env})) jobEnv[name] = interpolate(value, contexts(jobEnv))
  for (const [name, value] of Object.entries(options.replaceEnv ?? {})) {
    if (!(name in jobEnv)) throw new Error(`${options.file} sets no ${name} to replace`)
    jobEnv[name] = value
  }
  const work = mkdtempSync(join(runnerDir, 'job-'))
  const results: JobStepResult[] = []
  for (const [index, step] of (job.steps as any[]).entries()) {
    const name = step.name ?? step.id ?? step.uses ?? `step ${index + 1}`
    if (!condition(step.if, contexts(jobEnv), status)) {
      results.push({id: step.id, name, uses: step.uses, outcome: 'skipped', outputs: {}, stdout: '', stderr: ''})
      if (step.id) steps[step.id] = {outputs: {}, outcome: 'skipped', conclusion: 'skipped'}
      continue
    }
    const env: Record<string, string> = {...stepEnvironment(base, files), ...jobEnv}
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = interpolate(value, contexts(jobEnv))
    let result: UsesResult
    if (step.uses !== undefined) {
      const inputs = Object.fromEntries(Object.entries<unknown>(step.with ?? {}).map(([k, v]) => [k, interpolate(v, contexts(jobEnv))]))
      const played = playCache(step.uses, inputs, cacheStore, github, cache)
      if (played !== undefined) result = {success: true, outputs: played}
      // the workspace is the checkout the test made
      else if (/^actions\/checkout@v4$/.test(step.uses)) result = {success: true, outputs: {}}
      else if (options.uses !== undefined) {
        result = await options.uses({uses: step.uses, with: inputs, env, runnerDir, cacheStore, githubToken: token})
      } else throw new Error(`${name}: uses ${step.uses}, which this test does not play`)
    } else {
      if (step.shell !== undefined && step.shell !== 'bash') throw new Error(`${name}: shell ${step.shell}; this runner plays bash`)
      const output = join(work, `output-${index}.txt`)
      const script = join(work, `step-${index}.sh`)
      writeFileSync(output, '')
      writeFileSync(script, interpolate(step.run, contexts(jobEnv)))
      const shell = step.shell === 'bash' ? BASH_SHELL : ['-e']
      const run = await bash(script, options.workspace, {...env, GITHUB_OUTPUT: output}, options.timeoutMs ?? 120_000, shell)
      result = {success: run.code === 0, outputs: parseCommandFile(readFileSync(output, 'utf8')), stdout: run.stdout, stderr: run.stderr}
    }
    const outcome = result.success ? 'success' : 'failure'
    const conclusion = result.success || step['continue-on-error'] === true ? 'success' : 'failure'
    if (step.id) steps[step.id] = {outputs: result.outputs, outcome, conclusion}
    results.push({
      id: step.id,
      name,
      uses: step.uses,
      outcome,
      outputs: result.outputs,
      stdout: result.stdout ?? '',
      stderr: result.stderr ?? '',
    })
    if (conclusion === 'failure') status.failed = true
  }
  return {ran: true, success: !status.failed, steps: results, cache}
}
