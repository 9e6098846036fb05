import {afterAll, beforeAll} from 'vitest'
import {DocumentAnswers} from '../../src/devserver/answers.js'
import {openapiDocument} from '../../src/devserver/openapi.js'
import {API_PREFIX} from '../../src/contract/vocabulary.js'
import {startDevServer, type DevServer, type DevServerOptions} from '../../src/devserver/index.js'
import {CONNECTION_SECRETS, USERS} from '../../src/devserver/seed.js'
import {resolveRef} from '../helpers/openapi.js'
import {systemClock} from '../../src/core/clock.js'

/**
 * Shared test plumbing: a server on a free port, a fetch wrapper that checks every /api/v1
 * answer against the OpenAPI document, and a check that no answer ever carries a seeded secret.
 */

type Json = any

export const doc = JSON.parse(JSON.stringify(openapiDocument)) as Json
export const SECRETS = Object.values(CONNECTION_SECRETS)

export interface Answer {
  status: number
  headers: Headers
  text: string
  body: Json
}

export interface CallOptions {
  token?: string
  /** JSON-encoded unless `raw` */
  body?: unknown
  raw?: string
  headers?: Record<string, string>
  /** skip the OpenAPI check (answers shaped by an injected fault) */
  unchecked?: boolean
}

export interface TestServer extends DevServer {
  call(method: string, path: string, options?: CallOptions): Promise<Answer>
  /** `call` with `/api/v1` prepended */
  api(method: string, path: string, options?: CallOptions): Promise<Answer>
  /** a fresh token for a seeded user, minted through `/_dev/tokens` */
  token(email?: string): Promise<string>
}

/** The dev server's options in a test: its clock is the system's (the time of day the world hands out) unless the test gives one. */
export type TestServerOptions = Omit<DevServerOptions, 'now'> & {now?: DevServerOptions['now']}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startDevServer({port: 0, now: systemClock.wall, ...options})
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = {...o.headers}
    if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`
    let body: string | undefined = o.raw
    if (o.body !== undefined) body = JSON.stringify(o.body)
    if (body !== undefined) headers['content-type'] ??= 'application/json'
    const res = await fetch(server.url + path, {method, headers, body})
    const text = await res.text()
    for (const secret of SECRETS) if (text.includes(secret)) throw new Error(`${method} ${path} answered a connection secret`)
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json')
    const answer: Answer = {status: res.status, headers: res.headers, text, body: isJson ? JSON.parse(text) : undefined}
    if (path.startsWith(`${API_PREFIX}/`) && !o.unchecked) checkAgainstDocument(method, path, answer)
    return answer
  }
  return {
    ...server,
    call,
    api: (method, path, o) => call(method, `${API_PREFIX}${path}`, o),
    async token(email = USERS.ada.email) {
      const answer = await call('POST', '/_dev/tokens', {body: {email}})
      if (answer.status !== 200) throw new Error(`minting a token failed: ${answer.text}`)
      return answer.body.token as string
    },
  }
}

// ---------------------------------------------------------------------------------------------
// OpenAPI response validation: the dev server's own (src/devserver/answers.ts)

const answers = new DocumentAnswers()

/** Compiles every answer's schema now: a suite that times its commands does it before it starts. */
export function compileAnswerSchemas(): void {
  answers.compileAll()
}

const resolve = (node: Json): Json => resolveRef(doc, node)

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  // a shared path item (`$ref`) carries this path's summary and description beside the reference
  item: {...resolve(doc.paths[template]), ...doc.paths[template]},
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  literals: template.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length,
}))

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace']

/** Every operation of the document, shared path items resolved. */
export const operations = templates.flatMap(({template, item}) =>
  METHODS.filter((method) => item[method] !== undefined).map((method) => ({template, method, operation: item[method] as Json, item})),
)

/** The operation of the document for a method and a request path (with /api/v1, maybe a query). */
export function findOperation(method: string, path: string): {template: string; operation: Json; item: Json} | undefined {
  const relative = path.split('?')[0].slice(API_PREFIX.length)
  const matches = templates.filter(({regex}) => regex.test(relative)).sort((a, b) => b.literals - a.literals)
  for (const {template, item} of matches) {
    const operation = item[method.toLowerCase()]
    if (operation !== undefined) return {template, operation, item}
  }
  // the document's `Retired` tag: retired paths answer the same on every path below them
  const below = templates.find(
    ({template, item}) => item.get?.tags?.includes('Retired') && new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/`).test(relative),
  )
  const operation = below?.item[method.toLowerCase()]
  return operation === undefined ? undefined : {template: below!.template, operation, item: below!.item}
}

/**
 * Throws unless the answer is what the document says this operation answers with this status:
 * a documented status (or `default`) with a JSON schema the body meets. A path the document does
 * not have may only answer 404 with the error envelope.
 */
export function checkAgainstDocument(method: string, path: string, answer: Answer): void {
  const problem = answers.problem(method, path, answer.status, answer.body)
  if (problem !== undefined) throw new Error(`${problem}\n${answer.text.slice(0, 500)}`)
}

/** Expects an error answer with the envelope, the status and the code. */
export function expectError(answer: Answer, status: number, code: string): string {
  if (answer.status !== status || answer.body?.error?.code !== code || typeof answer.body.error.message !== 'string') {
    throw new Error(`expected ${status} ${code}, got ${answer.status}: ${answer.text.slice(0, 300)}`)
  }
  return answer.body.error.message as string
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * One dev server for a test file, started before its tests and closed after, with a token for
 * each seeded user (ada: acme and globex; grace: globex only).
 */
export function useSeededServer(options: TestServerOptions = {}): {server: TestServer; ada: string; grace: string} {
  const fixture = {} as {server: TestServer; ada: string; grace: string}
  beforeAll(async () => {
    fixture.server = await startTestServer(options)
    fixture.ada = await fixture.server.token(USERS.ada.email)
    fixture.grace = await fixture.server.token(USERS.grace.email)
  })
  afterAll(() => fixture.server.close())
  return fixture
}
