/**
 * Every operation of the API, once: its method and path template (relative to /api/v1), keyed
 * by the operationId of src/contract/openapi.json. The CLI's api layer builds request paths from
 * these (src/core/http/path.ts `routePath`), the dev server registers its handlers on them, and
 * test/contract checks that this table and the document list exactly the same operations.
 * Retired routes are not here: they exist only to answer 403 (the document tags them `Retired`).
 */
export const ROUTES = {
  getOpenApi: {method: 'GET', path: '/openapi.json'},
  createToken: {method: 'POST', path: '/tokens'},
  createCliToken: {method: 'POST', path: '/cli/token'},
  getMe: {method: 'GET', path: '/me'},
  listRuns: {method: 'GET', path: '/orgs/{org}/runs'},
  getOrgSummary: {method: 'GET', path: '/orgs/{org}/summary'},
  setImplementationDoc: {method: 'PUT', path: '/orgs/{org}/implementation-doc'},
  listConnections: {method: 'GET', path: '/orgs/{org}/connections'},
  updateEvalSet: {method: 'PATCH', path: '/orgs/{org}/eval-sets/{evalSetId}'},
  runEvalSet: {method: 'POST', path: '/orgs/{org}/eval-sets/{evalSetId}/run'},
  createScenario: {method: 'POST', path: '/orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios'},
  launchExperiment: {method: 'POST', path: '/orgs/{org}/experiments/{experimentId}/launch'},
  getVariantContent: {method: 'GET', path: '/orgs/{org}/experiments/{experimentId}/variants/{variantId}/content'},
  previewOptimizationRound: {method: 'POST', path: '/orgs/{org}/optimizations/{climbId}/rounds/current/preview'},
  proposeOptimizationTrials: {method: 'POST', path: '/orgs/{org}/optimizations/{climbId}/propose'},
  chatOptimization: {method: 'POST', path: '/orgs/{org}/optimizations/{climbId}/chat'},
  forkRun: {method: 'POST', path: '/runs/{runId}/fork'},
  deleteMcpServer: {method: 'DELETE', path: '/orgs/{org}/mcp-servers/{ref}'},
  deleteTag: {method: 'DELETE', path: '/orgs/{org}/tags/{tagId}'},
} as const satisfies Record<string, Route>

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Route {
  method: Method
  path: string
}

export type OperationId = keyof typeof ROUTES

/** The `{name}` parameters of a path template, as a type: `'/orgs/{org}/runs'` → `'org'`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never

/** The parameters an operation's path needs. */
export type ParamsOf<Id extends OperationId> = Record<PathParams<(typeof ROUTES)[Id]['path']>, string>

/** The parameter names of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
}
