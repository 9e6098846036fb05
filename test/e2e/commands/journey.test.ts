import {describe, expect, it} from 'vitest'
import {freshConfigDir} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectOk, jsonDoc, lines, requestsOf} from './util.js'

// A user's whole session in one config dir: device-flow login, pick an org, reconfigure and
// launch an eval, find and fork its runs, work an optimization, mint a CI token, log out.

// the journey never waits for a run to finish, and checks that launched and forked runs are
// `queued`: an hour queued each (a run queues for a fifth of its time), however slow the machine
const e2e = useE2E({deviceInterval: 0.05, runSeconds: 5 * 3600})

describe('journey: login → configure → launch → fork → optimize → CI token → logout', () => {
  it('works end to end in one config dir', async () => {
    const configDir = freshConfigDir()
    // no AMCTL_TOKEN: everything goes through the stored login
    const amctl = (argv: string[], opts: {input?: string; env?: Record<string, string | undefined>; stdinTerminal?: boolean} = {}) =>
      e2e.current.amctl(argv, {as: null, configDir, ...opts})

    // 1. log in through the device flow (auto-approved as ada), at a terminal
    const login = await amctl(['auth', 'login'], {stdinTerminal: true})
    expect(login.exitCode, login.stderr).toBe(0)
    expect(login.stderr).toContain(`Logged in to ${e2e.current.url} as ada@example.com (acme, globex)`)

    // 2. status, with the base URL now coming from the profile
    const status = await amctl(['auth', 'status', '--json'], {env: {AMCTL_BASE_URL: undefined}})
    expectOk(status)
    expect(jsonDoc(status)).toMatchObject({user: {email: 'ada@example.com'}, tokenSource: 'file', baseUrl: e2e.current.url, org: null})

    // 3. choose the organization once
    expectOk(await amctl(['config', 'set', 'org', 'acme']))

    // 4. reconfigure the eval: the flag is case-insensitive, the body has only the two members
    const [update, updateReqs] = await requestsOf(e2e.current, () =>
      amctl(['evals', 'update', 'es_acme_checkout', '--cadence', 'WEEKLY', '--samples', '5', '--json']),
    )
    expectOk(update)
    expect(updateReqs).toEqual([`PATCH ${API}/orgs/acme/eval-sets/es_acme_checkout`])
    expect(jsonDoc(update)).toMatchObject({
      cadence: 'WEEKLY',
      samplesPerTarget: 5,
      connectionIds: ['conn_acme_github'],
      skillIds: ['sk_acme_checkout_flow', 'sk_acme_refunds'],
    })

    // 5. launch it
    const launch = await amctl(['evals', 'run', 'es_acme_checkout', '--json'])
    expectOk(launch, 'Launched eval set es_acme_checkout: 1 batch, 2 runs\n')
    const {runIds, batchIds} = jsonDoc(launch) as {runIds: string[]; batchIds: string[]}
    expect(runIds).toHaveLength(2)

    // 6. the launched runs head the list
    const list = await amctl(['runs', 'list', '--limit', '5'])
    expectOk(list)
    const rows = lines(list.stdout).map((line) => line.split('\t'))
    expect(rows).toHaveLength(5)
    expect(
      rows
        .slice(0, 2)
        .map((row) => row[0])
        .sort(),
    ).toEqual([...runIds].sort())
    for (const row of rows.slice(0, 2)) expect(row.slice(1, 3)).toEqual(['queued', 'es_acme_checkout'])
    expect(rows[2][0]).toBe('run_acme_0260')

    // 7. fork one of them: the fork is now the newest run, with forkedFrom
    const fork = await amctl(['runs', 'fork', runIds[0], '--json'])
    expectOk(fork)
    const forked = jsonDoc(fork)
    expect(forked).toMatchObject({forkedFrom: runIds[0], evalSetId: 'es_acme_checkout', status: 'queued'})
    const top = jsonDoc(await amctl(['runs', 'list', '--limit', '1', '--json']))
    expect(top.items[0]).toMatchObject({id: forked.id, forkedFrom: runIds[0]})
    expect(batchIds[0]).toMatch(/^bat_/)

    // 8. propose trials for the optimization (acme has the capability)
    const propose = await amctl(['optimizations', 'propose', 'opt_acme_checkout', '--json'])
    expectOk(propose)
    expect(jsonDoc(propose).trials).toHaveLength(2)

    // 9. ask about them, the message from stdin
    const chat = await amctl(['optimizations', 'chat', 'opt_acme_checkout', '--message', '-', '--json'], {
      input: 'Which trial should run first?\n',
    })
    expectOk(chat)
    expect(jsonDoc(chat).messages[0]).toMatchObject({role: 'user', content: 'Which trial should run first?'})

    // 10. a token for CI, printed once; it works as AMCTL_TOKEN on its own
    const created = await amctl(['tokens', 'create', '--name', 'ci', '--expires', '30d', '--json'])
    expectOk(created, 'warning: store it now: it cannot be shown again\n')
    const ci = jsonDoc(created).token as string
    const ciStatus = await e2e.current.amctl(['auth', 'status', '--json'], {configDir: freshConfigDir(), env: {AMCTL_TOKEN: ci}})
    expectOk(ciStatus)
    expect(jsonDoc(ciStatus)).toMatchObject({user: {email: 'ada@example.com'}, tokenSource: 'env'})

    // 11. log out: the stored token is gone, status exits 3
    expectOk(await amctl(['auth', 'logout']), `Logged out of ${e2e.current.url} (removed from file)\n`)
    const after = await amctl(['auth', 'status'])
    expectError(after, 3, 'unauthorized')
    expect(lines(after.stderr)[1]).toBe('hint: run `amctl auth login`')
  })
})
