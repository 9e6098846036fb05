import {spawn} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {parse} from 'yaml'
import {condition, interpolate} from './expressions.js'
import {tempDir} from './temp.js'
import {machinePath} from './env.js'

/**
 * Runs a composite GitHub Action (action.yml) as the Actions runner does, on this machine: its
 * inputs from `with:` over their defaults; each `run:` step by `bash --noprofile --norc -eo
 * pipefail FILE` (the runner's `shell: bash`) in the workspace, with the runner's variables
 * (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, RUNNER_TOOL_CACHE, GITHUB_ACTION_PATH, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, GITHUB_PATH, GITHUB_ENV …) and the step's `env:`; a step's GITHUB_OUTPUT
 * becomes `steps.<id>.outputs`, GITHUB_PATH and GITHUB_ENV reach the later steps; after a step
 * fails, the action fails, and only the steps whose `if:` says so run (`!cancelled()`), as the runner does. The only `uses:` steps it knows are actions/upload-artifact (recorded), actions/cache/restore and
 * actions/cache/save, played on a store the test keeps (`CacheStore`), as the cache service
 * would. Expressions are GitHub's (./expressions.ts) on the contexts a composite action's steps
 * see here: `inputs`, `steps` and `github` (the token, and what the runner's variables say:
 * `event` is the payload at GITHUB_EVENT_PATH, `event_name`, `ref`, `repository`, `run_id`…);
 * naming any other context fails the run (the action needs no more).
 */

export interface ActionStepResult {
  id?: string
  name: string
  exitCode: number | null
  stdout: string
  stderr: string
}

export interface ActionResult {
  /** the action's outputs (its `outputs:` evaluated), '' for an output no step set */
  outputs: Record<string, string>
  /** each step's outputs, by step id */
  stepOutputs: Record<string, Record<string, string>>
  steps: ActionStepResult[]
  /** whether every step succeeded */
  success: boolean
  /** what the steps appended to $GITHUB_STEP_SUMMARY */
  stepSummary: string
  /** what the steps added to PATH through $GITHUB_PATH, in order */
  path: string[]
  /** the cache keys restored (hit) and saved, and the artifacts uploaded (actions/upload-artifact, recorded) */
  cache: {restored: string[]; saved: string[]; uploaded: Array<{name: string; files: string[]}>}
}

export interface RunActionOptions {
  /** the directory holding action.yml (GITHUB_ACTION_PATH, as the runner checked the action out) */
  actionPath: string
  /** action.yml itself, when it is not in actionPath (the runner reads it there) */
  actionFile?: string
  with?: Record<string, string | number | boolean>
  /** the job's environment (the workflow's `env:`), on top of the runner's */
  env?: Record<string, string>
  workspace: string
  /** RUNNER_OS and RUNNER_ARCH: Linux/macOS/Windows, X64/ARM64 (default: Linux X64) */
  runner?: {os: string; arch: string}
  /** the actions/cache store; shared between runs to play a later job */
  cacheStore?: CacheStore
  /**
   * The runner's directory for the job (RUNNER_TEMP, HOME, the tool cache and the files behind
   * GITHUB_PATH, GITHUB_ENV, GITHUB_STEP_SUMMARY): a job that plays this action among its steps
   * shares its own (./workflow-runner.ts); default one of this run
   */
  runnerDir?: string
  /** RUNNER_TOOL_CACHE: a directory the test keeps, to play a self-hosted runner's, which its jobs share (default: one of this run) */
  toolCache?: string
  /** `github.token`, the job's token (default: none) */
  githubToken?: string
  /** stop after the step with this id (to exercise part of the action) */
  until?: string
  /** start at the step with this id, the earlier steps' outputs given in `outputsOf` */
  from?: string
  outputsOf?: Record<string, Record<string, string>>
  timeoutMs?: number
}

export function readAction(file: string): any {
  return parse(readFileSync(file, 'utf8'))
}

/** The `${{ … }}` expressions in a string. */
export function expressionsIn(text: string): string[] {
  return [...text.matchAll(/\$\{\{(.*?)\}\}/gs)].map((m) => m[1].trim())
}

/**
 * The `github` context as the runner makes it, from the same facts as its variables: the event's
 * payload (the file at GITHUB_EVENT_PATH), its name, the ref, the repository and the run; and the
 * job's token.
 */
export function githubContext(env: Record<string, string | undefined>, token = ''): Record<string, unknown> {
  const path = env.GITHUB_EVENT_PATH
  return {
    token,
    event: path ? JSON.parse(readFileSync(path, 'utf8')) : {},
    event_name: env.GITHUB_EVENT_NAME ?? '',
    ref: env.GITHUB_REF ?? '',
    base_ref: env.GITHUB_BASE_REF ?? '',
    head_ref: env.GITHUB_HEAD_REF ?? '',
    repository: env.GITHUB_REPOSITORY ?? '',
    sha: env.GITHUB_SHA ?? '',
    run_id: env.GITHUB_RUN_ID ?? '',
    run_attempt: env.GITHUB_RUN_ATTEMPT ?? '',
    server_url: env.GITHUB_SERVER_URL ?? '',
    api_url: env.GITHUB_API_URL ?? '',
    workspace: env.GITHUB_WORKSPACE ?? '',
  }
}

/**
 * The actions/cache service: entries saved by key, each in the scope of the ref that saved it,
 * never overwritten (a second save of a key is refused, as the service refuses it). A restore
 * looks in the scopes it may read, in order (the run's own ref, then a pull request's base
 * branch, then the default branch): first for the key itself, then for each of `restore-keys` as
 * a prefix, the newest entry matching first.
 */
export class CacheStore {
  readonly entries: Array<{key: string; dir: string; scope: string}> = []

  /** The entry a restore finds, or undefined. */
  find(key: string, restoreKeys: string[], scopes: string[]): {key: string; dir: string; scope: string} | undefined {
    for (const scope of scopes) {
      const inScope = this.entries.filter((entry) => entry.scope === scope).reverse()
      const exact = inScope.find((entry) => entry.key === key)
      if (exact) return exact
      for (const prefix of restoreKeys) {
        const found = inScope.find((entry) => entry.key.startsWith(prefix))
        if (found) return found
      }
    }
    return undefined
  }

  /** Saves `path` under `key` in `scope`; false (nothing saved) when the key is taken there. */
  save(key: string, path: string, scope: string): boolean {
    if (this.entries.some((entry) => entry.key === key && entry.scope === scope)) return false
    const dir = join(tempDir('amctl-cache-'), 'saved')
    cpSync(path, dir, {recursive: true})
    this.entries.push({key, dir, scope})
    return true
  }
}

/** The scopes a run's restore may read (its ref, a pull request's base branch, the default branch). */
export function cacheScopes(github: Record<string, unknown>): string[] {
  const defaultBranch = (github.event as any)?.repository?.default_branch
  // (a run whose ref the test left out reads and writes the scope '')
  const scopes = [String(github.ref ?? '')]
  if (github.base_ref) scopes.push(`refs/heads/${github.base_ref}`)
  if (typeof defaultBranch === 'string') scopes.push(`refs/heads/${defaultBranch}`)
  return [...new Set(scopes)]
}

/**
 * actions/cache/restore and actions/cache/save (v4) on the store: their `with:` (`path`, `key`,
 * `restore-keys`) already evaluated, `path` relative to the workspace; returns the step's outputs (`cache-hit`, `cache-primary-key`,
 * `cache-matched-key`), or undefined when `uses` is not one of them.
 */
export function playCache(
  uses: string,
  inputs: Record<string, string>,
  store: CacheStore | undefined,
  github: Record<string, unknown>,
  cache: {restored: string[]; saved: string[]; uploaded?: Array<{name: string; files: string[]}>},
): Record<string, string> | undefined {
  const {key} = inputs
  // (a relative path is the workspace's, as actions/cache takes it)
  const path = resolve(String(github.workspace), inputs.path ?? '')
  if (/^actions\/cache\/restore@v4$/.test(uses)) {
    const restoreKeys = (inputs['restore-keys'] ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    const found = store?.find(key, restoreKeys, cacheScopes(github))
    if (found !== undefined) {
      mkdirSync(dirname(path), {recursive: true})
      cpSync(found.dir, path, {recursive: true})
      cache.restored.push(found.key)
    }
    return {'cache-hit': String(found?.key === key), 'cache-primary-key': key, 'cache-matched-key': found?.key ?? ''}
  }
  if (/^actions\/cache\/save@v4$/.test(uses)) {
    if (store !== undefined && existsSync(path) && store.save(key, path, String(github.ref ?? ''))) cache.saved.push(key)
    return {}
  }
  if (/^actions\/upload-artifact@v4$/.test(uses)) {
    // recorded, not uploaded: its name and the files of its `path` lines that exist
    const files = (inputs.path ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((line) => resolve(String(github.workspace), line))
      .filter((file) => existsSync(file))
    cache.uploaded?.push({name: inputs.name ?? 'artifact', files})
    const id = String(cache.uploaded?.length ?? 1)
    return {'artifact-id': id, 'artifact-url': `${github.server_url}/${github.repository}/actions/runs/${github.run_id}/artifacts/${id}`}
  }
  return undefined
}

/** A GITHUB_OUTPUT / GITHUB_ENV file: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks. */
export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (line === '') continue
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1)
      if (end < 0) throw new Error(`no ${heredoc[2]} ends ${heredoc[1]}`)
      values[heredoc[1]] = lines.slice(i + 1, end).join('\n')
      i = end
      continue
    }
    const at = line.indexOf('=')
    if (at < 1) throw new Error(`not a name=value line: ${JSON.stringify(line)}`)
    values[line.slice(0, at)] = line.slice(at + 1)
  }
  return values
}

/** `shell: bash` as the runner runs it: `bash --noprofile --norc -eo pipefail {0}`. */
export const BASH_SHELL = ['--noprofile', '--norc', '-eo', 'pipefail']

/** Runs a script file with bash and the given options (`shell`), collecting its output. */
export function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  shell: string[] = BASH_SHELL,
): Promise<{code: number | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [...shell, script], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stdout, stderr})
    })
  })
}

/** The files behind GITHUB_STEP_SUMMARY, GITHUB_PATH and GITHUB_ENV, shared by a job's steps. */
export interface RunnerFiles {
  summary: string
  path: string
  env: string
}

/**
 * The runner's directories for a job under `runnerDir` (made when missing, kept when there: a job
 * and the actions it uses share them) and the variables every step of it gets.
 */
export function runnerOf(
  runnerDir: string,
  workspace: string,
  options: {runner?: {os: string; arch: string}; toolCache?: string} = {},
): {files: RunnerFiles; variables: Record<string, string>} {
  const temp = join(runnerDir, 'temp')
  const tools = options.toolCache ?? join(runnerDir, 'tool-cache')
  const home = join(runnerDir, 'home')
  for (const dir of [temp, tools, home]) mkdirSync(dir, {recursive: true})
  const files = {
    summary: join(runnerDir, 'step-summary.md'),
    path: join(runnerDir, 'path.txt'),
    env: join(runnerDir, 'env.txt'),
  }
  for (const file of Object.values(files)) if (!existsSync(file)) writeFileSync(file, '')
  const runner = options.runner ?? {os: 'Linux', arch: 'X64'}
  const variables: Record<string, string> = {
    PATH: machinePath() || '/usr/bin:/bin',
    HOME: home,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_OS: runner.os,
    RUNNER_ARCH: runner.arch,
    RUNNER_TEMP: temp,
    RUNNER_TOOL_CACHE: tools,
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_PATH: files.path,
    GITHUB_ENV: files.env,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'example/workflow',
  }
  return {files, variables}
}

/**
 * A step's environment: `base`, what earlier steps wrote to GITHUB_ENV, and PATH with what they
 * added through GITHUB_PATH first. As the runner does (SetEnvFileCommand, in
 * github.com/actions/runner/blob/main/src/Runner.Worker/FileCommandManager.cs), GITHUB_ENV may set
 * any name but NODE_OPTIONS (in any case), which it refuses; a workflow's or job's `env:` may set
 * that one too.
 */
export function stepEnvironment(base: Record<string, string>, files: RunnerFiles): Record<string, string> {
  const added = readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse()
  const set = Object.entries(parseCommandFile(readFileSync(files.env, 'utf8'))).filter(([name]) => name.toUpperCase() !== 'NODE_OPTIONS')
  return {...base, ...Object.fromEntries(set), PATH: [...added, base.PATH].join(':')}
}

export async function runAction(options: RunActionOptions): Promise<ActionResult> {
  const action = readAction(options.actionFile ?? join(options.actionPath, 'action.yml'))
  if (action.runs?.using !== 'composite') throw new Error('not a composite action')
  const runnerDir = options.runnerDir ?? tempDir('amctl-runner-')
  const {files, variables} = runnerOf(runnerDir, options.workspace, options)
  // this run's scripts and GITHUB_OUTPUT files
  const work = mkdtempSync(join(runnerDir, 'action-'))
  const base: Record<string, string> = {...variables, GITHUB_ACTION_PATH: options.actionPath, ...options.env}
  const github = githubContext(base, options.githubToken)
  const inputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries<any>(action.inputs ?? {})) inputs[name] = interpolate(spec.default, {github})
  for (const [name, value] of Object.entries(options.with ?? {})) {
    if (!(name in inputs)) throw new Error(`the action has no input ${name}`)
    inputs[name] = String(value)
  }
  const context = {inputs, steps: {...options.outputsOf} as Record<string, Record<string, string>>, github}
  /** what an expression of a step sees: `steps.ID.outputs` */
  const contexts = () => ({
    inputs,
    github,
    steps: Object.fromEntries(Object.entries(context.steps).map(([id, outputs]) => [id, {outputs}])),
  })
  const steps = action.runs.steps as any[]
  const first = options.from === undefined ? 0 : steps.findIndex((step) => step.id === options.from)
  if (first < 0) throw new Error(`the action has no step ${options.from}`)
  const results: ActionStepResult[] = []
  const cache = {restored: [] as string[], saved: [] as string[], uploaded: [] as Array<{name: string; files: string[]}>}
  let success = true
  for (const [index, step] of steps.entries()) {
    if (index < first) continue
    const name = step.name ?? step.id ?? `step ${index + 1}`
    // after a failed step, only the steps whose `if:` asks for it run (always(), failure(), !cancelled())
    if (!condition(step.if, contexts(), {failed: !success})) {
      results.push({id: step.id, name, exitCode: null, stdout: '', stderr: 'skipped'})
      continue
    }
    if (step.uses !== undefined) {
      const stepInputs = Object.fromEntries(Object.entries<unknown>(step.with ?? {}).map(([k, v]) => [k, interpolate(v, contexts())]))
      const outputs = playCache(step.uses, stepInputs, options.cacheStore, github, cache)
      if (outputs === undefined) throw new Error(`${name}: uses ${step.uses}, which this runner does not play`)
      if (step.id) context.steps[step.id] = outputs
      results.push({id: step.id, name, exitCode: 0, stdout: '', stderr: ''})
      continue
    }
    if (step.shell !== 'bash') throw new Error(`${name}: shell ${step.shell}; this runner plays bash steps`)
    const output = join(work, `output-${index}.txt`)
    writeFileSync(output, '')
    const env: Record<string, string> = {...stepEnvironment(base, files), GITHUB_OUTPUT: output}
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = interpolate(value, contexts())
    const script = join(work, `step-${index}.sh`)
    writeFileSync(script, step.run)
    const run = await bash(script, options.workspace, env, options.timeoutMs ?? 120_000)
    results.push({id: step.id, name, exitCode: run.code, stdout: run.stdout, stderr: run.stderr})
    if (step.id) context.steps[step.id] = parseCommandFile(readFileSync(output, 'utf8'))
    if (run.code !== 0) success = false
    if (options.until !== undefined && step.id === options.until) break
  }
  const outputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries<any>(action.outputs ?? {})) outputs[name] = interpolate(spec.value, contexts())
  return {
    outputs,
    stepOutputs: context.steps,
    steps: results,
    success,
    stepSummary: readFileSync(files.summary, 'utf8'),
    path: readFileSync(files.path, 'utf8').split('\n').filter(Boolean),
    cache,
  }
}
