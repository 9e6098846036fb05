import {spawn} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {parse} from 'yaml'
import {tempDir} from './temp.js'
import {machinePath} from './env.js'

/**
 * Runs a composite GitHub Action (action.yml) as the Actions runner does, on this machine: its
 * inputs from `with:` over their defaults; each `run:` step by `bash --noprofile --norc -eo
 * pipefail FILE` (the runner's `shell: bash`) in the workspace, with the runner's variables
 * (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, RUNNER_TOOL_CACHE, GITHUB_ACTION_PATH, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, GITHUB_PATH, GITHUB_ENV …) and the step's `env:`; a step's GITHUB_OUTPUT
 * becomes `steps.<id>.outputs`, GITHUB_PATH and GITHUB_ENV reach the later steps; the first step
 * that fails ends the action. The only `uses:` steps it knows are actions/cache/restore and
 * actions/cache/save, played on a store the test keeps (key → directory), as the cache service
 * would. Expressions: `inputs.NAME`, `steps.ID.outputs.NAME` and `github.token` (an input's
 * default), and an `if:` comparing one of those with a quoted string (== or !=); anything else
 * fails the run (the action needs no more).
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
  /** the cache keys restored (hit) and saved */
  cache: {restored: string[]; saved: string[]}
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
  /** the actions/cache store: key → saved directory; shared between runs to play a later job */
  cacheStore?: Map<string, string>
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

interface Context {
  inputs: Record<string, string>
  steps: Record<string, Record<string, string>>
  github: {token: string}
}

function evaluate(text: unknown, context: Context): string {
  return String(text ?? '').replace(/\$\{\{(.*?)\}\}/gs, (_, expression: string) => {
    const e = expression.trim()
    if (e === 'github.token') return context.github.token
    let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(e)
    if (m) {
      if (!(m[1] in context.inputs)) throw new Error(`\${{ ${e} }}: the action has no input ${m[1]}`)
      return context.inputs[m[1]]
    }
    m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(e)
    if (m) return context.steps[m[1]]?.[m[2]] ?? ''
    throw new Error(`\${{ ${e} }}: not an expression this runner plays (inputs.X, steps.X.outputs.Y, github.token)`)
  })
}

/** An `if:` of the form `steps.ID.outputs.NAME == 'text'` (or !=). */
function condition(text: string, context: Parameters<typeof evaluate>[1]): boolean {
  const m = /^(?:\$\{\{\s*)?(steps\.[A-Za-z0-9_-]+\.outputs\.[A-Za-z0-9_-]+)\s*(==|!=)\s*'([^']*)'(?:\s*\}\})?$/.exec(text.trim())
  if (!m) throw new Error(`if: ${text}: not a condition this runner plays`)
  const value = evaluate(`\${{ ${m[1]} }}`, context)
  return m[2] === '==' ? value === m[3] : value !== m[3]
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

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{code: number | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
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

export async function runAction(options: RunActionOptions): Promise<ActionResult> {
  const action = readAction(options.actionFile ?? join(options.actionPath, 'action.yml'))
  if (action.runs?.using !== 'composite') throw new Error('not a composite action')
  const inputs: Record<string, string> = {}
  const github = {token: options.githubToken ?? ''}
  for (const [name, spec] of Object.entries<any>(action.inputs ?? {}))
    inputs[name] = evaluate(spec.default, {inputs: {}, steps: {}, github})
  for (const [name, value] of Object.entries(options.with ?? {})) {
    if (!(name in inputs)) throw new Error(`the action has no input ${name}`)
    inputs[name] = String(value)
  }
  const runnerDir = tempDir('amctl-runner-')
  const temp = join(runnerDir, 'temp')
  const tools = options.toolCache ?? join(runnerDir, 'tool-cache')
  mkdirSync(temp)
  mkdirSync(tools, {recursive: true})
  const files = {
    summary: join(runnerDir, 'step-summary.md'),
    path: join(runnerDir, 'path.txt'),
    env: join(runnerDir, 'env.txt'),
  }
  for (const file of Object.values(files)) writeFileSync(file, '')
  const runner = options.runner ?? {os: 'Linux', arch: 'X64'}
  const base: Record<string, string> = {
    PATH: machinePath() || '/usr/bin:/bin',
    HOME: join(runnerDir, 'home'),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_OS: runner.os,
    RUNNER_ARCH: runner.arch,
    RUNNER_TEMP: temp,
    RUNNER_TOOL_CACHE: tools,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_ACTION_PATH: options.actionPath,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_PATH: files.path,
    GITHUB_ENV: files.env,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'example/workflow',
    ...options.env,
  }
  mkdirSync(base.HOME)
  const context: Context = {inputs, steps: {...options.outputsOf}, github}
  const steps = action.runs.steps as any[]
  const first = options.from === undefined ? 0 : steps.findIndex((step) => step.id === options.from)
  if (first < 0) throw new Error(`the action has no step ${options.from}`)
  const results: ActionStepResult[] = []
  const cache = {restored: [] as string[], saved: [] as string[]}
  let success = true
  for (const [index, step] of steps.entries()) {
    if (index < first) continue
    const name = step.name ?? step.id ?? `step ${index + 1}`
    if (step.if !== undefined && !condition(step.if, context)) {
      results.push({id: step.id, name, exitCode: null, stdout: '', stderr: 'skipped'})
      continue
    }
    if (step.uses !== undefined) {
      const key = evaluate(step.with?.key, context)
      const path = evaluate(step.with?.path, context)
      if (/^actions\/cache\/restore@v\d+$/.test(step.uses)) {
        const saved = options.cacheStore?.get(key)
        if (saved !== undefined) {
          mkdirSync(dirname(path), {recursive: true})
          cpSync(saved, path, {recursive: true})
          cache.restored.push(key)
        }
        if (step.id) context.steps[step.id] = {'cache-hit': saved === undefined ? 'false' : 'true', 'cache-primary-key': key}
      } else if (/^actions\/cache\/save@v\d+$/.test(step.uses)) {
        if (options.cacheStore !== undefined && existsSync(path)) {
          const saved = join(tempDir('amctl-cache-'), 'saved')
          cpSync(path, saved, {recursive: true})
          options.cacheStore.set(key, saved)
          cache.saved.push(key)
        }
      } else {
        throw new Error(`${name}: uses ${step.uses}, which this runner does not play`)
      }
      results.push({id: step.id, name, exitCode: 0, stdout: '', stderr: ''})
      continue
    }
    if (step.shell !== 'bash') throw new Error(`${name}: shell ${step.shell}; this runner plays bash steps`)
    const output = join(runnerDir, `output-${index}.txt`)
    writeFileSync(output, '')
    const added = readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse()
    const env: Record<string, string> = {
      ...base,
      ...parseCommandFile(readFileSync(files.env, 'utf8')),
      GITHUB_OUTPUT: output,
      PATH: [...added, base.PATH].join(':'),
    }
    for (const [key, value] of Object.entries(step.env ?? {})) env[key] = evaluate(value, context)
    const script = join(runnerDir, `step-${index}.sh`)
    writeFileSync(script, step.run)
    const run = await bash(script, options.workspace, env, options.timeoutMs ?? 120_000)
    results.push({id: step.id, name, exitCode: run.code, stdout: run.stdout, stderr: run.stderr})
    if (step.id) context.steps[step.id] = parseCommandFile(readFileSync(output, 'utf8'))
    if (run.code !== 0) {
      success = false
      break
    }
    if (options.until !== undefined && step.id === options.until) break
  }
  const outputs: Record<string, string> = {}
  for (const [name, spec] of Object.entries<any>(action.outputs ?? {})) outputs[name] = evaluate(spec.value, context)
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
