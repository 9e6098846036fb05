/**
 * The dev server's option values and the description of its test hooks, on their own so
 * `amctl dev server` can declare its flags and write its help without loading the server
 * (which it imports only when it runs).
 */
export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'
export const SEED_KINDS = ['default', 'empty'] as const
export type SeedKind = (typeof SEED_KINDS)[number]
export const APPROVE_MODES = ['auto', 'manual'] as const
export type ApproveMode = (typeof APPROVE_MODES)[number]
/** Seconds a launched or forked run takes from `queued` to its outcome. */
export const DEFAULT_RUN_SECONDS = 10

/** Whether only this machine can reach `host` (elsewhere, anyone could use the token-less /_dev/ hooks). */
export {isLoopbackHost} from '../contract/vocabulary.js'

/** Where the test hooks live (dev server only; not part of the API). */
export const HOOKS_PREFIX = '/_dev'

export interface HookDoc {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** below HOOKS_PREFIX; `:name` is a path parameter */
  path: string
  /** what it does, in a few words */
  summary: string
  /** its body's members and effects, when there is more to say */
  details?: string
  /** a query string for the example (`?…`) */
  query?: string
  /** a working example of the body (JSON text), if it takes one */
  example?: string
}

/**
 * Every hook under /_dev/, as `amctl dev server --help` documents it (with a working example
 * each). test/devserver checks that the server registers exactly these.
 */
export const HOOKS: readonly HookDoc[] = [
  {
    method: 'POST',
    path: '/faults',
    summary: 'inject a fault into matching API requests',
    details:
      'body: match {method, path (a pattern)}, count (requests it takes; absent: until cleared), probability (0-1) and seed, ' +
      'actions (one picked per request): {type:"status", status, code, message, headers, body, contentType}, {type:"latency", ms}, ' +
      '{type:"drop-before"} (cut before the work), {type:"drop-after"} (cut after the work is committed), ' +
      '{type:"truncate"} (half the answer)',
    example: '{"count":2,"actions":[{"type":"status","status":503}]}',
  },
  {method: 'GET', path: '/faults', summary: 'list the fault rules and how often each hit'},
  {method: 'DELETE', path: '/faults', summary: 'remove every fault rule'},
  {
    method: 'GET',
    path: '/requests',
    summary: 'read the log of API requests',
    details: 'never /_dev/ ones, never a credential; filtered by ?method= and ?path= (a pattern)',
    query: '?method=POST&path=/run$',
  },
  {method: 'DELETE', path: '/requests', summary: 'empty the request log'},
  {method: 'POST', path: '/tokens', summary: 'mint a token for a user', details: 'body: {email}', example: '{"email":"ada@example.com"}'},
  {
    method: 'DELETE',
    path: '/orgs/:org/members/:email',
    summary: 'remove a membership',
    details: "that user's tokens lose the organization at once",
  },
  {method: 'POST', path: '/orgs/:org/members/:email', summary: 'add a membership'},
  {
    method: 'GET',
    path: '/orgs/:org',
    summary: 'read an organization',
    details: 'members, capabilities, credits, provider key, repositories, personas, run count',
  },
  {
    method: 'PATCH',
    path: '/orgs/:org',
    summary: "set an organization's capability, credits or provider key",
    details:
      'body: {capabilities: {optimizations}, credits, providerKey}; no credits: launches answer 402; ' +
      'no provider key: previews answer 409',
    example: '{"capabilities":{"optimizations":true},"credits":500}',
  },
  {
    method: 'POST',
    path: '/orgs/:org/runs',
    summary: 'add finished runs to the run list',
    details: 'body: {count} (up to 1,000,000)',
    example: '{"count":1000}',
  },
  {
    method: 'POST',
    path: '/orgs/:org/outcomes',
    summary: 'plan how the next launched or forked runs end',
    details:
      'body: {status (succeeded, failed or cancelled), score (0-1 or null) or mean and sd (scores drawn from that normal distribution, ' +
      'clipped to 0-1, the same for a given seed), seed, evalSetId, agent, model (each optional: the runs it matches), ' +
      'count (runs it takes; absent: until cleared)}; at most 1000 plans an organization; the first plan that matches a new run decides its outcome and score, ' +
      'reached after --run-seconds as usual (without a plan: fixed by the run ID)',
    example: '{"status":"succeeded","score":0.42,"count":1}',
  },
  {method: 'GET', path: '/orgs/:org/outcomes', summary: 'list the planned outcomes and how many runs each took'},
  {method: 'DELETE', path: '/orgs/:org/outcomes', summary: 'remove every planned outcome of the organization'},
  {
    method: 'PATCH',
    path: '/runs/:runId',
    summary: "set a run's status and score",
    details: 'body: {status (any string), score (0-1 or null)}; the run then stops moving on its own',
    example: '{"status":"succeeded","score":0.92}',
  },
  {
    method: 'POST',
    path: '/device/approve',
    summary: 'approve a waiting device login',
    details: 'body: {userCode, email (default: the first user)}',
    example: '{"userCode":"BCDF-GHJK"}',
  },
  {
    method: 'POST',
    path: '/device/deny',
    summary: 'deny a waiting device login',
    details: 'body: {userCode}',
    example: '{"userCode":"BCDF-GHJK"}',
  },
]

/** The syntax of `match.path` and `?path=`, for the help. */
export const PATTERN_SYNTAX =
  'A path pattern matches any path containing it; ^ at its start ties it to the start, $ at its end to the end, * stands for any ' +
  'characters; nothing else is special (regular expressions are refused).'
