import {describe, expect, it} from 'vitest'
import {standingClock, useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

// evals update (PATCH: only what is given; omitted members kept; arrays replace) and evals run.

// (the server's clock stands still: a launched run is `queued` when the next command reads it, however busy the machine)
const e2e = useE2E({now: standingClock()})
const PATCH_SEARCH = `PATCH ${API}/orgs/acme/eval-sets/es_acme_search`

/** The stored eval set, read back through `amctl api -X PATCH` with an empty object (changes nothing). */
async function readBack(id: string, org = 'acme'): Promise<Record<string, unknown>> {
  const r = await e2e.current.amctl(['api', '-X', 'PATCH', `/orgs/{org}/eval-sets/${id}`, '--org', org, '--input', '-'], {input: '{}'})
  expectOk(r)
  return jsonDoc(r)
}

const tsvObject = (stdout: string) => Object.fromEntries(lines(stdout).map((line) => line.split('\t')))

describe('amctl evals update', () => {
  it('--cadence weekly --samples 5: sends only those, prints key<TAB>value; stored, the rest kept', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'update', 'es_acme_search', '--org', 'acme', '--cadence', 'weekly', '--samples', '5']),
    )
    expectOk(r)
    expect(reqs).toEqual([PATCH_SEARCH])
    const out = tsvObject(r.stdout)
    expect(out).toMatchObject({
      id: 'es_acme_search',
      name: 'Product search',
      cadence: 'WEEKLY',
      samplesPerTarget: '5',
      connectionIds: '[]',
      skillIds: '[]',
    })
    expect(out.targets).toBe(
      '[{"agent":"claude-code","model":"claude-sonnet-4-5"},{"agent":"codex","model":"gpt-5"},{"agent":"cursor-agent","model":"gemini-2.5-pro"}]',
    )

    const stored = await readBack('es_acme_search')
    expect(stored).toMatchObject({cadence: 'WEEKLY', samplesPerTarget: 5, connectionIds: [], name: 'Product search'})
    expect(stored.targets).toHaveLength(3)
  })

  it('--json with --connection (repeated) and --set: arrays replace, other members are stored', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl([
        'evals',
        'update',
        'es_acme_search',
        '--org',
        'org_01J9ACME0000000000000000',
        '--connection',
        'conn_acme_stripe',
        '--connection',
        'conn_acme_github',
        '--set',
        'skillIds=["sk_acme_refunds"]',
        '--set',
        'description="nightly smoke"',
        '--json',
      ]),
    )
    expectOk(r)
    expect(reqs).toEqual([`PATCH ${API}/orgs/org_01J9ACME0000000000000000/eval-sets/es_acme_search`])
    const doc = jsonDoc(r)
    expect(doc).toMatchObject({
      id: 'es_acme_search',
      cadence: 'WEEKLY', // kept from the previous test
      samplesPerTarget: 5,
      connectionIds: ['conn_acme_stripe', 'conn_acme_github'],
      skillIds: ['sk_acme_refunds'],
      description: 'nightly smoke',
    })
    expect(await readBack('es_acme_search')).toEqual(doc)
  })

  it('--set __proto__=…: stored as a member and read back as one (the dev server keeps any member name)', async () => {
    const r = await e2e.current.amctl([
      'evals',
      'update',
      'es_acme_checkout',
      '--org',
      'acme',
      '--set',
      '__proto__={"owner":"ada"}',
      '--json',
    ])
    expectOk(r)
    expect(r.stdout).toContain('"__proto__":{"owner":"ada"}')
    const stored = await readBack('es_acme_checkout')
    expect(Object.hasOwn(stored, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual({owner: 'ada'})
  })

  it('--clear-connections sends connectionIds: [] and clears them', async () => {
    const r = await e2e.current.amctl(['evals', 'update', 'es_acme_search', '--org', 'acme', '--clear-connections', '--json'])
    expectOk(r)
    expect(jsonDoc(r)).toMatchObject({connectionIds: [], skillIds: ['sk_acme_refunds'], samplesPerTarget: 5})
  })

  it('local validation failures: exit 2 naming the problem, and no request at all', async () => {
    const cases: Array<[string[], string | RegExp]> = [
      [['--samples', '51'], '--samples must be from 1 to 50, got 51'],
      [['--cadence', 'hourly'], '--cadence must be one of NONE, DAILY, WEEKLY, MONTHLY (any case), got "hourly"'],
      [
        ['--connection', 'conn_acme_github', '--clear-connections'],
        '--connection and --clear-connections contradict each other; give one of them',
      ],
      [[], 'nothing to change: give --cadence, --samples, --connection, --clear-connections or --set'],
      [['--set', 'skillIds=[sk_1]'], /^--set skillIds: the value is not valid JSON \(unexpected "s" at line 1, column 2\)/],
    ]
    // no --org either: the checks come before org resolution (GET /me)
    const [results, reqs] = await requestsOfAll(
      e2e.current,
      cases.map(
        ([flags]) =>
          () =>
            e2e.current.amctl(['evals', 'update', 'es_acme_checkout', ...flags]),
      ),
    )
    cases.forEach(([flags, message], i) => {
      const said = expectError(results[i], 2, 'invalid_request')
      if (typeof message === 'string') expect(said, flags.join(' ')).toBe(message)
      else expect(said, flags.join(' ')).toMatch(message)
    })
    expect(reqs).toEqual([])
  })

  it("the server's validation: a connection of another org is a 400 (exit 2), nothing stored", async () => {
    const r = await e2e.current.amctl([
      'evals',
      'update',
      'es_acme_checkout',
      '--org',
      'acme',
      '--connection',
      'conn_globex_slack',
      '--json',
    ])
    expect(expectJsonError(r, 2, 'invalid_request', 400).message).toBe(
      'connectionIds: connection "conn_globex_slack" does not exist in organization acme',
    )
    expect((await readBack('es_acme_checkout')).connectionIds).toEqual(['conn_acme_github'])
  })

  it("an unknown eval set: exit 5 naming it (update and run); another org's: exit 4; an unknown org: exit 5 naming the org", async () => {
    const [[missing, missingRun, other, noOrg], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['evals', 'update', 'es_nope', '--org', 'acme', '--samples', '3']),
      () => e2e.current.amctl(['evals', 'run', 'es_nope', '--org', 'acme']),
      () => e2e.current.amctl(['evals', 'update', 'es_globex_onboarding', '--org', 'acme', '--samples', '3']),
      () => e2e.current.amctl(['evals', 'update', 'es_acme_checkout', '--org', 'initech', '--samples', '3']),
    ])
    // the organization is what is missing: the message must not blame the eval set
    expect(expectError(noOrg, 5, 'not_found', 404)).toBe('organization "initech" not found')
    expect(expectError(missing, 5, 'not_found', 404)).toBe('eval set "es_nope" not found')
    expect(expectError(missingRun, 5, 'not_found', 404)).toBe('eval set "es_nope" not found')
    expect(expectError(other, 4, 'forbidden', 403)).toBe('eval set "es_globex_onboarding" belongs to another organization')
    expect(reqs).toEqual(
      sorted([
        `PATCH ${API}/orgs/acme/eval-sets/es_nope`,
        `POST ${API}/orgs/acme/eval-sets/es_nope/run`,
        `PATCH ${API}/orgs/acme/eval-sets/es_globex_onboarding`,
        `PATCH ${API}/orgs/initech/eval-sets/es_acme_checkout`,
      ]),
    )
  })
})

describe('amctl evals run', () => {
  it('POST …/run: prints batchIds and runIds; the new runs head the run list', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme']))
    expectOk(r, 'Launched eval set es_acme_checkout: 1 batch, 2 runs\n')
    expect(reqs).toEqual([`POST ${API}/orgs/acme/eval-sets/es_acme_checkout/run`])
    const out = lines(r.stdout)
    expect(out).toHaveLength(2)
    expect(out[0]).toMatch(/^batchIds\t\["bat_\w+"\]$/)
    expect(out[1]).toMatch(/^runIds\t\["run_\w+","run_\w+"\]$/)
    const runIds = JSON.parse(out[1].split('\t')[1]) as string[]
    const batchId = JSON.parse(out[0].split('\t')[1])[0]

    const list = jsonDoc(await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '5', '--json']))
    expect(
      list.items
        .slice(0, 2)
        .map((run: {id: string}) => run.id)
        .sort(),
    ).toEqual([...runIds].sort())
    for (const run of list.items.slice(0, 2)) expect(run).toMatchObject({evalSetId: 'es_acme_checkout', batchId, status: 'queued'})
  })

  it('--json: {"batchIds","runIds"}, one per target', async () => {
    const before = (await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount
    const r = await e2e.current.amctl(['evals', 'run', 'es_acme_search', '--org', 'acme', '--json'])
    expectOk(r, 'Launched eval set es_acme_search: 1 batch, 3 runs\n')
    const doc = jsonDoc(r)
    expect(Object.keys(doc).sort()).toEqual(['batchIds', 'runIds'])
    expect(doc.runIds).toHaveLength(3)
    expect((await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount).toBe(before + 3)
  })

  it('no credits left: exit 8 and nothing launched', async () => {
    await e2e.current.hook('PATCH', '/_dev/orgs/acme', {credits: 0})
    try {
      const before = (await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount
      const r = await e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme'])
      expect(expectError(r, 8, 'insufficient_credits', 402)).toBe('organization acme has no credits left; add credits to launch work')
      expect((await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount).toBe(before)
    } finally {
      await e2e.current.hook('PATCH', '/_dev/orgs/acme', {credits: 1000})
    }
  })

  it('sent but no answer (connection dropped after the launch was committed): not resubmitted, newest runs listed, exit 9', async () => {
    await e2e.current.fault({match: {method: 'POST', path: '/eval-sets/es_acme_checkout/run$'}, count: 1, actions: [{type: 'drop-after'}]})
    try {
      const [r, reqs] = await requestsOf(e2e.current, () =>
        e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--json']),
      )
      expect(r.exitCode).toBe(9)
      expect(reqs).toEqual([`POST ${API}/orgs/acme/eval-sets/es_acme_checkout/run`, `GET ${API}/orgs/acme/runs?limit=10`])
      const doc = jsonDoc(r)
      expect(doc.outcome).toBe('unknown')
      expect(doc.error.message).toContain('the server may have accepted the request; check before retrying')
      // the launch did happen: its runs are the newest ones shown
      expect(doc.recentRuns[0]).toMatchObject({evalSetId: 'es_acme_checkout', status: 'queued'})
      expect(doc.recentRuns).toHaveLength(10)
    } finally {
      await e2e.current.clearFaults()
    }
  })
})
