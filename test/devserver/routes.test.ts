import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROUTES} from '../../src/contract/routes.js'
import {DEV_ROUTES} from '../../src/devserver/dev-routes.js'
import {HOOKS, HOOKS_PREFIX} from '../../src/devserver/options.js'
import {DocumentAnswers} from '../../src/devserver/answers.js'
import {ApiRouter} from '../../src/devserver/context.js'
import type {Reply} from '../../src/devserver/reply.js'
import {buildRouter} from '../../src/devserver/routes/index.js'
import {registerRuns} from '../../src/devserver/routes/runs.js'
import {operations} from './helpers.js'

const routes = buildRouter().list()

describe('the dev server registers', () => {
  it('each operation of src/contract/routes.ts once, at its method and path', () => {
    for (const [id, {method, path}] of Object.entries(ROUTES)) {
      const registered = routes.filter(({handler}) => handler.operationId === id)
      expect(registered, id).toHaveLength(1)
      expect(registered[0].method).toBe(method)
      expect(registered[0].pattern).toBe(`/api/v1${path.replace(/\{(\w+)\}/g, ':$1')}`)
    }
    const apiOperations = routes.filter(({handler}) => handler.operationId !== undefined && handler.operationId in ROUTES)
    expect(apiOperations).toHaveLength(Object.keys(ROUTES).length)
  })

  it('a handler of its own for every operation of the document (a missing one would answer 501)', () => {
    const missing = routes.flatMap(({handler}) => (handler.unimplemented === undefined ? [] : [handler.unimplemented]))
    if (missing.length > 0) {
      expect.fail(`no handler in src/devserver/routes/ for ${missing.join(', ')}: register each with router.operation('<operationId>', …)`)
    }
  })

  it('a token check exactly where the document does not say `security: []`', () => {
    // (a retired operation is registered by its path, below: the next describe)
    for (const {operation} of operations.filter(
      ({operation}) => operation.operationId !== undefined && !operation.tags?.includes('Retired'),
    )) {
      const route = routes.find(({handler}) => handler.operationId === operation.operationId)!
      expect(route.handler.auth, operation.operationId).toBe(!(Array.isArray(operation.security) && operation.security.length === 0))
    }
  })

  it('each hook of the dev document (src/devserver/dev-routes.ts) once, at its method and path below /_dev', () => {
    for (const [id, {method, path}] of Object.entries(DEV_ROUTES)) {
      const registered = routes.filter(({handler}) => handler.operationId === id)
      expect(registered, id).toHaveLength(1)
      expect(`${registered[0].method} ${registered[0].pattern}`).toBe(`${method} ${HOOKS_PREFIX}${path}`)
    }
  })

  it('exactly the /_dev/ hooks that `amctl dev server --help` documents', () => {
    const hooks = routes.filter(({pattern}) => pattern.startsWith(`${HOOKS_PREFIX}/`)).map(({method, pattern}) => `${method} ${pattern}`)
    expect(hooks.sort()).toEqual(HOOKS.map((hook) => `${hook.method} ${HOOKS_PREFIX}${hook.path}`).sort())
  })
})

describe('src/devserver', () => {
  it('registers API routes only through the operations and the retired paths of the document', () => {
    const retired = operations.filter(({operation}) => operation.tags?.includes('Retired')).map(({template}) => template)
    for (const {pattern, handler} of routes.filter((route) => route.pattern.startsWith('/api/v1/'))) {
      if (handler.operationId !== undefined || handler.unimplemented !== undefined) continue
      const template = pattern
        .slice('/api/v1'.length)
        .replace(/\/\*$/, '')
        .replace(/:(\w+)/g, '{$1}')
      expect(retired, pattern).toContain(template)
    }
    const other = routes.filter((route) => !route.pattern.startsWith('/api/v1/') && !route.pattern.startsWith(`${HOOKS_PREFIX}/`))
    expect(other.map(({method, pattern}) => `${method} ${pattern}`)).toEqual(['GET /device', 'POST /device'])
  })

  it('spells no API path in its code', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
      )
    const offenders: string[] = []
    for (const file of files('src/devserver').filter((name) => name.endsWith('.ts'))) {
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        const code = line.trim()
        if (code.startsWith('*') || code.startsWith('/*') || code.startsWith('//')) continue
        if (code.includes('/api/v1') || code.includes(`${'$'}{API_PREFIX}/`)) offenders.push(`${file}:${i + 1}: ${code}`)
      }
    }
    expect(offenders).toEqual([])
  })
})

describe('a documented operation without a handler', () => {
  // a dev server whose areas leave out every operation but the runs': each other one answers
  // 501 not_implemented naming itself (before, a 404 "no route", which a test expecting
  // "exit 5, not found" took for the handler's answer)
  const partial = new ApiRouter()
  registerRuns(partial)
  partial.unimplemented()
  const answers = new DocumentAnswers()

  it('answers 501 not_implemented in the error envelope, naming the operation and where its handler goes, with no token asked', async () => {
    const match = partial.match('DELETE', '/api/v1/orgs/acme/tags/tag_1')!
    expect(match.handler).toMatchObject({unimplemented: 'deleteTag', auth: false, persist: false})
    const reply = await (match.handler.run as () => Reply)()
    expect(reply.status).toBe(501)
    const body = JSON.parse(reply.body)
    expect(body).toEqual({
      error: {
        code: 'not_implemented',
        message:
          "the dev server has no handler for deleteTag (DELETE /api/v1/orgs/{org}/tags/{tagId}): register one with router.operation('deleteTag', …) in src/devserver/routes/",
      },
    })
    // an answer the document gives (its `default`: the error envelope)
    expect(answers.problem('DELETE', '/api/v1/orgs/acme/tags/tag_1', 501, body)).toBeUndefined()
  })

  it('leaves the registered operations as they are, and stands in for each other one once', () => {
    expect(partial.match('GET', '/api/v1/orgs/acme/runs')?.handler).toMatchObject({operationId: 'listRuns', auth: true})
    const handled = partial.list().flatMap(({handler}) => (handler.operationId === undefined ? [] : [handler.operationId]))
    expect(handled).toEqual(expect.arrayContaining(['listRuns', 'forkRun']))
    const standIns = partial.list().flatMap(({handler}) => (handler.unimplemented === undefined ? [] : [handler.unimplemented]))
    expect(standIns.sort()).toEqual(
      Object.keys(ROUTES)
        .filter((id) => !handled.includes(id as never))
        .sort(),
    )
  })
})
