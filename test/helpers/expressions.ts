import {data, Evaluator, Lexer, Parser} from '@actions/expressions'
import type {FunctionDefinition} from '@actions/expressions/funcs/info'
import {truthy} from '@actions/expressions/result'

/**
 * GitHub Actions expressions (`${{ … }}` and `if:`) as the runner evaluates them, by GitHub's own
 * parser and evaluator (@actions/expressions, of actions/languageservices): the test runners of
 * action.yml and of the example workflows (action-runner.ts, workflow-runner.ts) use nothing else.
 * Only the contexts a caller hands over exist: an expression naming another is an error, so a
 * workflow or an action cannot lean on something the runner under test does not play.
 */

/** The job's status, for success(), failure(), cancelled() and always(). */
export interface JobStatus {
  failed: boolean
}

const STATUS_FUNCTIONS = ['success', 'failure', 'cancelled', 'always'] as const

function statusFunctions(status: JobStatus): Map<string, FunctionDefinition> {
  const values: Record<(typeof STATUS_FUNCTIONS)[number], boolean> = {
    success: !status.failed,
    failure: status.failed,
    // (the runners here never cancel a job)
    cancelled: false,
    always: true,
  }
  return new Map(STATUS_FUNCTIONS.map((name) => [name, {name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(values[name])}]))
}

/** Evaluates one expression (the text between `${{` and `}}`, or an `if:`) on `contexts`. */
export function evaluate(expression: string, contexts: Record<string, unknown>, status: JobStatus = {failed: false}): data.ExpressionData {
  const lexed = new Lexer(expression).lex()
  const functions = statusFunctions(status)
  const parsed = new Parser(lexed.tokens, Object.keys(contexts), [...functions.values()]).parse()
  const context = JSON.parse(JSON.stringify(contexts), data.reviver) as data.Dictionary
  return new Evaluator(parsed, context, functions).evaluate()
}

/** A value with its `${{ … }}` replaced by their results as strings, as the runner does for `with:`, `env:` and `run:`. */
export function interpolate(text: unknown, contexts: Record<string, unknown>, status?: JobStatus): string {
  return String(text ?? '').replace(/\$\{\{(.*?)\}\}/gs, (_, expression: string) => evaluate(expression, contexts, status).coerceString())
}

/**
 * An `if:` condition: with or without `${{ }}` around it; without a status function it means
 * `success() && (condition)`, as GitHub documents. A step with no `if:` runs on success.
 */
export function condition(text: string | undefined, contexts: Record<string, unknown>, status: JobStatus): boolean {
  if (text === undefined) return !status.failed
  let expression = String(text).trim()
  const whole = /^\$\{\{(.*)\}\}$/s.exec(expression)
  if (whole) expression = whole[1]
  if (!new RegExp(`\\b(${STATUS_FUNCTIONS.join('|')})\\s*\\(`).test(expression)) expression = `success() && (${expression})`
  return truthy(evaluate(expression, contexts, status))
}
