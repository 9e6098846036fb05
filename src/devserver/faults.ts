import type {JsonObject} from '../contract/types.js'
import {ApiError, invalid} from './errors.js'
import {compilePattern, type PathMatcher} from './pattern.js'
import {mulberry32} from './random.js'
import {describeValue, isObject, optionalString, requireInteger, requireNumber, requireObject, requireOneOf} from './validate.js'

/** Injected faults (`/_dev/faults`): which requests they hit and what happens to them. */

export type FaultAction =
  | {
      type: 'status'
      status: number
      code?: string
      message?: string
      headers?: Record<string, string>
      body?: string
      contentType?: string
    }
  | {type: 'latency'; ms: number}
  | {type: 'drop-before'}
  | {type: 'drop-after'}
  | {type: 'truncate'}

export const FAULT_TYPES = ['status', 'latency', 'drop-before', 'drop-after', 'truncate'] as const

export interface FaultRule {
  id: number
  match: {method?: string; path?: string}
  /** matching requests left; null = until cleared */
  remaining: number | null
  probability: number
  seed: number
  actions: FaultAction[]
  /** how many requests it has hit so far */
  hits: number
}

interface ActiveRule {
  rule: FaultRule
  path: PathMatcher | null
  random: () => number
}

export class Faults {
  private rules: ActiveRule[] = []
  private nextId = 1

  add(body: JsonObject): FaultRule {
    const match = body.match === undefined ? {} : requireObject(body, 'match')
    const method = optionalString(match, 'method')?.toUpperCase()
    const pathSource = optionalString(match, 'path')
    const path = pathSource === undefined ? null : compilePattern(pathSource, 'match.path')
    const remaining = body.count === undefined ? null : requireInteger(body, 'count', 1, Number.MAX_SAFE_INTEGER)
    const probability = body.probability === undefined ? 1 : requireNumber(body, 'probability', 0, 1)
    const seed = body.seed === undefined ? 1 : requireInteger(body, 'seed', -(2 ** 31), 2 ** 32)
    if (!Array.isArray(body.actions) || body.actions.length === 0) throw invalid('actions must be a non-empty array of fault actions')
    const actions = body.actions.map((action, i) => parseAction(action, `actions[${i}]`))
    const rule: FaultRule = {
      id: this.nextId++,
      match: {...(method === undefined ? {} : {method}), ...(pathSource === undefined ? {} : {path: pathSource})},
      remaining,
      probability,
      seed,
      actions,
      hits: 0,
    }
    this.rules.push({rule, path, random: mulberry32(seed)})
    return rule
  }

  list(): FaultRule[] {
    return this.rules.map(({rule}) => rule)
  }

  clear(): void {
    this.rules = []
  }

  /**
   * The action for this request, if any. The first rule that matches takes the request and
   * counts it (whether or not its probability fires); a rule with no matches left is dropped.
   */
  pick(method: string, path: string): FaultAction | undefined {
    const active = this.rules.find(
      ({rule, path: matches}) => (rule.match.method === undefined || rule.match.method === method) && (matches === null || matches(path)),
    )
    if (active === undefined) return undefined
    const {rule, random} = active
    if (rule.remaining !== null) {
      rule.remaining -= 1
      if (rule.remaining === 0) this.rules = this.rules.filter((other) => other !== active)
    }
    if (random() >= rule.probability) return undefined
    rule.hits += 1
    return rule.actions[Math.floor(random() * rule.actions.length)]
  }
}

function parseAction(value: unknown, member: string): FaultAction {
  if (!isObject(value)) throw invalid(`${member} must be an object, got ${describeValue(value)}`)
  try {
    return parseActionMembers(value)
  } catch (error) {
    if (error instanceof ApiError) throw invalid(`${member}.${error.message}`)
    throw error
  }
}

function parseActionMembers(value: JsonObject): FaultAction {
  const type = requireOneOf(value, 'type', FAULT_TYPES)
  if (type === 'latency') return {type, ms: requireInteger(value, 'ms', 0, 600_000)}
  if (type !== 'status') return {type}
  const headers = value.headers === undefined ? {} : requireObject(value, 'headers')
  for (const [name, header] of Object.entries(headers)) {
    if (typeof header !== 'string') throw invalid(`headers.${name} must be a string, got ${describeValue(header)}`)
  }
  if (value.body !== undefined && typeof value.body !== 'string') throw invalid(`body must be a string, got ${describeValue(value.body)}`)
  return {
    type,
    status: requireInteger(value, 'status', 200, 599),
    code: optionalString(value, 'code'),
    message: optionalString(value, 'message'),
    headers: headers as Record<string, string>,
    body: value.body,
    contentType: optionalString(value, 'contentType'),
  }
}
