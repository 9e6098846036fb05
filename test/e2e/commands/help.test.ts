import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {freshConfigDir, runBin} from '../../helpers/bin.js'
import {ROOT} from '../../helpers/cli.js'
import {expectError} from './util.js'

// Every command's --help, from the built CLI: its summary and an EXAMPLES section.

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {oclif: {topics: Record<string, {description: string}>}}
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, {summary?: string; examples?: unknown[]}>
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({length: limit}, async () => {
      while (next < items.length) {
        const i = next++
        results[i] = await fn(items[i])
      }
    }),
  )
  return results
}

describe('--help', () => {
  it('every command of the manifest shows its summary, usage and an EXAMPLES section', async () => {
    const ids = Object.keys(manifest.commands).sort()
    expect(ids).toEqual(
      expect.arrayContaining([
        'api',
        'auth:login',
        'auth:logout',
        'auth:status',
        'auth:token',
        'config:get',
        'config:list',
        'config:set',
        'config:unset',
        'connections:list',
        'dev:server',
        'evals:run',
        'evals:update',
        'experiments:launch',
        'experiments:variant-content',
        'mcp-servers:delete',
        'optimizations:chat',
        'optimizations:preview',
        'optimizations:propose',
        'orgs:implementation-doc:set',
        'orgs:summary',
        'runs:fork',
        'runs:list',
        'runs:watch',
        'scenarios:create',
        'tags:delete',
        'tokens:create',
      ]),
    )
    const results = await pool(ids, 3, async (id) => ({id, result: await runBin([...id.split(':'), '--help'])}))
    for (const {id, result} of results) {
      const words = id.split(':').join(' ')
      const summary = manifest.commands[id].summary
      expect(summary, `${id} has a summary`).toBeTruthy()
      expect(result.exitCode, `${words} --help: ${result.stderr}`).toBe(0)
      expect(result.stdout.split('\n')[0], words).toBe(summary)
      expect(result.stdout, words).toContain(`$ amctl ${words}`)
      expect(result.stdout, words).toMatch(/\nEXAMPLES\n {2}\S/)
      expect(result.stdout, words).not.toMatch(/\u001b\[/)
      expect(result.stderr, `${words} --help writes nothing on stderr`).toBe('')
    }
  })

  it('the plugin commands work from the bundle: `help <topic>`, `help <command>`, `autocomplete`', async () => {
    // oclif loads plugin commands with import(); the bundle must route those through bin/run.cjs
    const [topic, command, root, autocomplete] = await Promise.all([
      runBin(['help', 'runs']),
      runBin(['help', 'runs', 'list']),
      runBin(['help']),
      runBin(['autocomplete', 'bash'], {env: {XDG_CACHE_HOME: freshConfigDir()}}),
    ])
    for (const r of [topic, command, root, autocomplete]) {
      expect(r.stderr, 'no error, no Node warning').not.toMatch(/error|Warning/)
      expect(r.exitCode).toBe(0)
    }
    expect(topic.stdout.split('\n')[0]).toBe(pkg.oclif.topics.runs.description)
    expect(topic.stdout).toContain('runs list')
    expect(command.stdout.split('\n')[0]).toBe(manifest.commands['runs:list'].summary)
    expect(root.stdout).toContain('TOPICS')
    expect(autocomplete.stdout).toContain(`eval "$(amctl autocomplete script bash)"`)
  })

  it('an unknown command or flag exits 2', async () => {
    const command = await runBin(['runs', 'lst'])
    expectError(command, 2, 'invalid_request')
    const flag = await runBin(['runs', 'list', '--colour'])
    expect(expectError(flag, 2, 'invalid_request')).toContain('--colour')
  })
})
