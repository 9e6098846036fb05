import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {freshConfigDir} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll} from './util.js'

// optimizations preview | propose | chat; the Optimizations capability and the provider key.

const e2e = useE2E()
const BASE = `${API}/orgs/acme/optimizations/opt_acme_checkout`

describe('amctl optimizations preview', () => {
  it('POST …/rounds/current/preview; piped key<TAB>value; --json with a body from --input merged with -F', async () => {
    const dir = freshConfigDir()
    const file = join(dir, 'preview.json')
    writeFileSync(file, '{"maxTrials": 2, "focus": "latency"}\n')
    writeFileSync(join(dir, 'note.md'), '# Focus\nlatency first\n\n')
    const [[r, json], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['optimizations', 'preview', 'opt_acme_checkout', '--org', 'acme']),
      () =>
        e2e.current.amctl([
          'optimizations',
          'preview',
          'opt_acme_checkout',
          '--org',
          'acme',
          '--input',
          file,
          '-F',
          'maxTrials=3',
          '-F',
          `note=@${join(dir, 'note.md')}`,
          '-F',
          'tags=["a",1]',
          '--json',
        ]),
    ])
    expect(reqs).toEqual([`POST ${BASE}/rounds/current/preview`, `POST ${BASE}/rounds/current/preview`])
    expectOk(r)
    expect(lines(r.stdout)).toEqual([
      'optimizationId\topt_acme_checkout',
      'round\t{"number":2,"status":"open","trials":0}',
      'suggestions\t["Tighten the system prompt","Add a worked example to the skill"]',
      'options\t{}',
    ])
    expectOk(json)
    // -F over --input; @file as a string with one trailing newline removed; typed JSON arrays
    expect(jsonDoc(json).options).toEqual({maxTrials: 3, focus: 'latency', note: '# Focus\nlatency first\n', tags: ['a', 1]})
  })

  it('globex has no provider key: exit 8 (needs_provider_key)', async () => {
    const r = await e2e.current.amctl(['optimizations', 'preview', 'opt_globex_docs', '--org', 'globex'])
    expect(expectError(r, 8, 'needs_provider_key', 409)).toContain('has no model provider key')
  })
})

describe('amctl optimizations propose', () => {
  it('acme (capability on): trials proposed, stored in the current round', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['optimizations', 'propose', 'opt_acme_checkout', '--org', 'acme', '-F', 'count=2', '--json']),
    )
    expectOk(r)
    expect(reqs).toEqual([`POST ${BASE}/propose`])
    const doc = jsonDoc(r)
    expect(doc).toMatchObject({optimizationId: 'opt_acme_checkout', round: 2, options: {count: 2}})
    expect(doc.trials).toHaveLength(2)
    for (const trial of doc.trials) expect(trial.status).toBe('proposed')
    // the next preview sees the two trials of the round
    const preview = jsonDoc(await e2e.current.amctl(['optimizations', 'preview', 'opt_acme_checkout', '--org', 'acme', '--json']))
    expect(preview.round.trials).toBe(2)
  })

  it('globex (no capability): exit 4, "Optimizations must be enabled for the organization"', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['optimizations', 'propose', 'opt_globex_docs', '--org', 'globex']),
    )
    expectError(r, 4, 'forbidden', 403)
    expect(r.stderr).toContain('\nhint: Optimizations must be enabled for the organization "globex" to propose trials')
    expect(reqs).toEqual([`POST ${API}/orgs/globex/optimizations/opt_globex_docs/propose`])
  })

  it("any other 403 keeps the server's reason as the error, with the capability as the hint (contract 3)", async () => {
    const [[other, member]] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['optimizations', 'propose', 'opt_acme_checkout', '--org', 'globex']),
      () => e2e.current.amctl(['optimizations', 'propose', 'opt_acme_checkout', '--org', 'acme'], {as: 'grace'}),
    ])
    expect(expectError(other, 4, 'forbidden', 403)).toBe('optimization "opt_acme_checkout" belongs to another organization')
    expect(expectError(member, 4, 'forbidden', 403)).toBe('grace@example.com is not a member of organization acme')
    for (const r of [other, member])
      expect(r.stderr).toMatch(/\nhint: Optimizations must be enabled for the organization "\w+" to propose trials/)
  })

  it('turning the capability on makes the same command succeed', async () => {
    await e2e.current.hook('PATCH', '/_dev/orgs/globex', {capabilities: {optimizations: true}})
    try {
      // piped: key<TAB>value, the trials as compact JSON
      const r = await e2e.current.amctl(['optimizations', 'propose', 'opt_globex_docs'], {as: 'grace'})
      expectOk(r)
      const out = lines(r.stdout)
      expect(out.slice(0, 2)).toEqual(['optimizationId\topt_globex_docs', 'round\t2'])
      expect(out[2]).toMatch(/^trials\t\[\{"id":"trial_\w+","description":"Tighten the system prompt","status":"proposed"\},/)
      expect(out[3]).toBe('options\t{}')
    } finally {
      await e2e.current.hook('PATCH', '/_dev/orgs/globex', {capabilities: {optimizations: false}})
    }
  })
})

describe('amctl optimizations chat', () => {
  it('--message TEXT: POST …/chat with {"message"}; the answer lists the conversation', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['optimizations', 'chat', 'opt_acme_checkout', '--org', 'acme', '--message', 'Why did trial 3 regress?']),
    )
    expectOk(r)
    expect(reqs).toEqual([`POST ${BASE}/chat`])
    const out = lines(r.stdout)
    expect(out[0]).toBe('optimizationId\topt_acme_checkout')
    const messages = JSON.parse(out[1].replace(/^messages\t/, ''))
    expect(messages.map((m: {role: string; content: string}) => [m.role, m.content])).toEqual([
      ['user', 'Why did trial 3 regress?'],
      ['assistant', 'Noted for round 2: I will weigh "Why did trial 3 regress?" when proposing the next trials.'],
    ])
  })

  it('--message - reads stdin, one trailing newline removed', async () => {
    const r = await e2e.current.amctl(['optimizations', 'chat', 'opt_acme_checkout', '--org', 'acme', '-m', '-', '--json'], {
      input: 'line one\nline two\n',
    })
    expectOk(r)
    const doc = jsonDoc(r)
    expect(doc.messages.at(-2)).toMatchObject({role: 'user', content: 'line one\nline two'})
    expect(doc.messages).toHaveLength(4)
  })

  it('an empty message is refused locally; an unknown optimization is a 404 naming it', async () => {
    const [[r, missing], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['optimizations', 'chat', 'opt_acme_checkout', '--org', 'acme', '-m', '-'], {input: '\n'}),
      () => e2e.current.amctl(['optimizations', 'chat', 'opt_nope', '--org', 'acme', '-m', 'hi']),
    ])
    expect(expectError(r, 2, 'invalid_request')).toBe('--message must not be empty')
    expect(reqs).toEqual([`POST ${API}/orgs/acme/optimizations/opt_nope/chat`]) // nothing from the empty message
    expect(expectError(missing, 5, 'not_found', 404)).toBe('optimization "opt_nope" not found')
  })
})
