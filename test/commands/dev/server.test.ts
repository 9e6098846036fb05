import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it, vi} from 'vitest'
import DevServerCommand, {hookExample} from '../../../src/commands/dev/server.js'
import {startDevServer} from '../../../src/devserver/index.js'
import {HOOKS} from '../../../src/devserver/options.js'
import {outcomeOf} from '../../../src/devserver/runs.js'
import {
  CONNECTIONS,
  EVAL_SETS,
  EXPERIMENTS,
  MCP_SERVERS,
  OPTIMIZATIONS,
  ORGS,
  TAGS,
  USERS,
  VARIANTS,
  VISIBILITY_PROMPTS,
  seedState,
  seededRunId,
} from '../../../src/devserver/seed.js'
import {sleep} from '../../devserver/helpers.js'
import {environment, runIn} from '../../helpers/cli.js'
import {fakeClock} from '../../helpers/fake-clock.js'
import {fakeIO} from '../../helpers/fake-io.js'
import {tempDir} from '../../helpers/temp.js'
import {systemClock} from '../../../src/core/clock.js'
import {fakeSignals} from '../../helpers/fake-signals.js'
import {noTransport} from '../../helpers/transport.js'

const tempFile = () => join(tempDir('amctl-cmd-'), 'state.json')
const json = {'content-type': 'application/json'}

/**
 * Runs `amctl dev server` in-process, its streams captured (the command's in its world, anything
 * else written to the process's); `stop()` delivers SIGTERM through its world's signals.
 */
function run(argv: string[]) {
  const fake = fakeIO()
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => out.push(String(chunk)) > 0)
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => err.push(String(chunk)) > 0)
  const signals = fakeSignals()
  // an error ends the command with oclif's ExitError carrying the exit code, as bin/run.cjs sees it
  const done = runIn(DevServerCommand, argv, {io: fake, env: environment(), clock: fakeClock(), signals, transport: noTransport()}).then(
    () => 0,
    (error: {oclif?: {exit?: number}}) => error.oclif?.exit ?? 1,
  )
  return {
    done,
    signals,
    stdout: () => fake.out() + out.join(''),
    // Node's own warnings (oclif emits one outside production) are not the command's output
    stderr: () => fake.err() + err.filter((chunk) => !chunk.startsWith('(node:')).join(''),
    async ready(): Promise<string> {
      for (let i = 0; i < 200 && !fake.out().includes('\n'); i += 1) await sleep(10)
      return fake.out().split('\n')[0]
    },
    async stop(): Promise<void> {
      signals.raise('SIGTERM')
      await done
    },
  }
}

afterEach(() => {
  vi.restoreAllMocks()
  process.exitCode = 0
})

describe('amctl dev server', () => {
  it('prints the base URL, then one line per seeded org; hints go to stderr; SIGTERM stops it', async () => {
    const cmd = run(['--port', '0'])
    const first = await cmd.ready()
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(first.endsWith(':0')).toBe(false)
    expect((await fetch(`${first}/api/v1/openapi.json`)).status).toBe(200)
    await cmd.stop()
    expect(cmd.stdout()).toBe(
      [first, `acme\t${ORGS.acme.publicId}\t${ORGS.acme.name}`, `globex\t${ORGS.globex.publicId}\t${ORGS.globex.name}`, ''].join('\n'),
    )
    expect(cmd.stderr()).toContain(`auth login --base-url ${first}`)
    expect(cmd.stderr()).toContain('Press Ctrl-C to stop')
    expect(process.exitCode ?? 0).toBe(0)
    await expect(fetch(`${first}/api/v1/openapi.json`)).rejects.toThrow()
  })

  it('prints one compact JSON line with --json', async () => {
    const cmd = run(['--port', '0', '--json', '--seed', 'empty'])
    await cmd.ready()
    await cmd.stop()
    const lines = cmd.stdout().trim().split('\n')
    expect(lines).toHaveLength(1)
    const printed = JSON.parse(lines[0])
    expect(printed).toEqual({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      orgs: [ORGS.acme, ORGS.globex],
      users: [USERS.ada, USERS.grace],
    })
  })

  it('logs each request to stderr with --verbose, never the token', async () => {
    const cmd = run(['--port', '0', '--verbose'])
    const url = await cmd.ready()
    await fetch(`${url}/api/v1/me`, {headers: {authorization: 'Bearer svc_notAToken'}})
    await cmd.stop()
    expect(cmd.stderr()).toMatch(/GET \/api\/v1\/me 401 \d+ms/)
    expect(cmd.stderr()).not.toContain('svc_notAToken')
  })

  it('warns when listening beyond loopback, and prints a reachable URL', async () => {
    const cmd = run(['--port', '0', '--host', '0.0.0.0', '--approve', 'manual'])
    const url = await cmd.ready()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${url}/device`)).status).toBe(200)
    await cmd.stop()
    expect(cmd.stderr()).toContain('warning: 0.0.0.0 is not a loopback address')
    expect(cmd.stderr()).toContain(`Approve device logins at ${url}/device`)
  })

  it('writes --data on stop', async () => {
    const file = tempFile()
    const cmd = run(['--port', '0', '--data', file])
    const url = await cmd.ready()
    await fetch(`${url}/_dev/orgs/acme`, {method: 'PATCH', headers: json, body: JSON.stringify({credits: 7})})
    await cmd.stop()
    expect(JSON.parse(readFileSync(file, 'utf8')).orgs[0].credits).toBe(7)
  })

  it('lists on stderr the seeded IDs a newcomer needs', async () => {
    const cmd = run(['--port', '0'])
    await cmd.ready()
    await cmd.stop()
    const err = cmd.stderr()
    expect(err).toContain('acme (org_01J9ACME0000000000000000, Acme Corp; Optimizations enabled)')
    expect(err).toContain('globex (org_01J9GLOBEX00000000000000, Globex Corporation; Optimizations not enabled)')
    const ids = [
      ...Object.values(EVAL_SETS),
      ...Object.values(CONNECTIONS),
      seededRunId('acme', 260),
      seededRunId('globex', 40),
      ...Object.values(VISIBILITY_PROMPTS),
      ...Object.values(EXPERIMENTS),
      ...Object.values(VARIANTS),
      `${OPTIMIZATIONS.acmeCheckout} (propose works)`,
      `${OPTIMIZATIONS.globexDocs} (propose answers 403)`,
      ...Object.values(MCP_SERVERS).map((server) => server.id),
      ...Object.values(TAGS),
    ]
    for (const id of ids) expect(err, id).toContain(id)
    expect(cmd.stdout()).not.toContain(EVAL_SETS.acmeCheckout)
  })

  it('lists no IDs with --seed empty', async () => {
    const cmd = run(['--port', '0', '--seed', 'empty'])
    await cmd.ready()
    await cmd.stop()
    expect(cmd.stderr()).not.toContain('Seeded IDs')
  })

  it('--run-seconds 0: a launched run has finished in the answer that launched it', async () => {
    const cmd = run(['--port', '0', '--run-seconds', '0'])
    const url = await cmd.ready()
    const minted = await fetch(`${url}/_dev/tokens`, {method: 'POST', headers: json, body: JSON.stringify({email: USERS.ada.email})})
    const {token} = (await minted.json()) as {token: string}
    const auth = {authorization: `Bearer ${token}`, ...json}
    const forked = await fetch(`${url}/api/v1/runs/${seededRunId('acme', 1)}/fork`, {method: 'POST', headers: auth, body: '{}'})
    const fork = (await forked.json()) as {id: string; status: string; evalSetId: string; agent: string; model: string}
    await cmd.stop()
    // the next run of its eval set × agent × model after the seeded ones
    const seeded = seedState('default', systemClock.wall()).runs[ORGS.acme.publicId].filter(
      (r) => r.evalSetId === fork.evalSetId && r.agent === fork.agent && r.model === fork.model,
    )
    expect(fork.status).toBe(outcomeOf(fork, seeded.length).outcome)
  })

  it('refuses a --data file of the wrong shape with exit 2 naming what is wrong, before it listens', async () => {
    const file = tempFile()
    const state: any = seedState('empty', systemClock.wall())
    state.users = {ada: true}
    writeFileSync(file, JSON.stringify(state))
    const probe = await startDevServer({now: systemClock.wall, port: 0, seed: 'empty'})
    const port = probe.port
    await probe.close()
    const cmd = run(['--port', String(port), '--data', file])
    expect(await cmd.done).toBe(2)
    expect(cmd.stderr()).toBe(`error: ${file} is not usable dev server state: users must be an array, got an object (invalid_request)\n`)
    expect(cmd.stdout()).toBe('')
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).rejects.toThrow()
  })

  it('refuses a --data file another server holds with exit 2, naming the lock', async () => {
    const file = tempFile()
    const holder = await startDevServer({now: systemClock.wall, port: 0, dataFile: file, seed: 'empty'})
    try {
      const cmd = run(['--port', '0', '--data', file])
      expect(await cmd.done).toBe(2)
      const refusal = `^error: ${file} is in use by another amctl dev server \\(process ${process.pid} .*; lock ${file}\\.lock\\)`
      expect(cmd.stderr()).toMatch(new RegExp(refusal))
    } finally {
      await holder.close()
    }
  })

  it('a change it cannot write to --data: 507 to the request and a warning at once; shutdown then has nothing to lose (exit 0)', async () => {
    const file = tempFile()
    const cmd = run(['--port', '0', '--data', file])
    const url = await cmd.ready()
    rmSync(file)
    mkdirSync(join(file, 'blocker'), {recursive: true})
    const refused = await fetch(`${url}/_dev/orgs/acme`, {method: 'PATCH', headers: json, body: JSON.stringify({credits: 3})})
    expect(refused.status).toBe(507)
    expect(cmd.stderr()).toContain(`warning: could not write ${file}: `)
    const state = (await (await fetch(`${url}/_dev/orgs/acme`)).json()) as {credits: number}
    expect(state.credits).toBe(1000)
    cmd.signals.raise('SIGTERM')
    expect(await cmd.done).toBe(0)
    expect(cmd.stderr()).not.toMatch(/^error: /m)
  })

  it.each([
    [['--seed', 'huge']],
    [['--approve', 'sometimes']],
    [['--port', '70000']],
    [['--port', 'abc']],
    [['--rate-limit', '-1']],
    [['--no-such-flag']],
  ])('refuses %j with one error line and exit 2', async (argv) => {
    const cmd = run(argv)
    expect(await cmd.done).toBe(2)
    expect(cmd.stdout()).toBe('')
    expect(cmd.stderr()).toMatch(/^error: [^\n]+\n$/)
  })

  it('refuses a --data file that is not dev server state with exit 2', async () => {
    const file = tempFile()
    writeFileSync(file, 'not json')
    const cmd = run(['--port', '0', '--data', file])
    expect(await cmd.done).toBe(2)
    expect(cmd.stderr()).toMatch(/^error: .*state\.json is not usable dev server state.* \(invalid_request\)\n$/)
  })

  it('exits 1 when the port is taken', async () => {
    const other = await startDevServer({now: systemClock.wall, port: 0, seed: 'empty'})
    try {
      const cmd = run(['--port', String(other.port)])
      expect(await cmd.done).toBe(1)
      expect(cmd.stderr()).toBe(`error: port ${other.port} is already in use on 127.0.0.1 (use --port 0 for a free one) (address_in_use)\n`)
    } finally {
      await other.close()
    }
  })

  it('has a summary, and its help documents every /_dev/ hook with an example', () => {
    expect(DevServerCommand.summary).toBeTruthy()
    for (const hook of HOOKS) {
      expect(DevServerCommand.description, hook.path).toContain(`  ${hook.method} /_dev${hook.path}: ${hook.summary}`)
      const {command, description} = hookExample(hook)
      const example = (DevServerCommand.examples as {command: string; description: string}[]).find((each) => each.command === command)
      expect(example?.description, hook.path).toContain(description)
    }
    expect(DevServerCommand.description).toContain('* stands for any characters')
    expect(DevServerCommand.description).toContain('--run-seconds')
    // the idiom that returns: `url=$(amctl dev server --port 0 | head -n1)` never does
    expect(JSON.stringify(DevServerCommand.examples)).not.toContain('| head')
    expect(JSON.stringify(DevServerCommand.examples)).toContain('exec 3< <(<%= config.bin %> <%= command.id %> --port 0); read -r url <&3')
  })
})
