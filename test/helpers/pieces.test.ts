import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {type CommandPieces, describedCommands, missingPieces} from './pieces.js'
import {tempDir} from './temp.js'

// The check that every command has its pieces (test/pieces.test.ts), on trees of the test's: a
// command with all of them, then with each left out.

/** A tree with `runs logs`, its unit test and its end-to-end test (files as given, `undefined`: left out). */
function tree(files: Record<string, string | undefined> = {}): string {
  const root = tempDir('amctl-pieces-')
  const all: Record<string, string | undefined> = {
    'src/commands/runs/logs.ts': 'export default class RunsLogs {}\n',
    'test/commands/runs/logs.test.ts': "import RunsLogs from '../../../src/commands/runs/logs.js'\n",
    'test/e2e/commands/runs.test.ts': "describe('amctl runs logs', () => {})\n",
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    if (text === undefined) continue
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), text)
  }
  return root
}

const logs = (root: string, Cmd: CommandPieces['Cmd'] = {operations: ['listRunLogs']}): CommandPieces[] => [
  {id: 'runs:logs', file: join(root, 'src/commands/runs/logs.ts'), Cmd},
]

describe('missingPieces', () => {
  it('nothing for a command with a unit test, an end-to-end test and its operations', () => {
    const root = tree()
    expect(missingPieces(root, logs(root))).toEqual([])
    // `amctl api` declares that it sends anything instead
    expect(missingPieces(root, logs(root, {anyRequest: true}))).toEqual([])
  })

  it('a command without a unit test: no file under test/commands/ imports it', () => {
    for (const unit of [undefined, "import RunsList from '../../../src/commands/runs/list.js'\n"]) {
      const root = tree({'test/commands/runs/logs.test.ts': unit})
      expect(missingPieces(root, logs(root))).toEqual([
        'amctl runs logs: no unit test. Add test/commands/runs/logs.test.ts, which runs src/commands/runs/logs.ts in-process (runCommand, test/helpers/cli.ts)',
      ])
    }
    // a topic's test file that imports it is its unit test
    const topic = tree({
      'test/commands/runs/logs.test.ts': undefined,
      'test/commands/runs/runs.test.ts': "await import('../../../src/commands/runs/logs.js')\n",
    })
    expect(missingPieces(topic, logs(topic))).toEqual([])
  })

  it('a command without an end-to-end test: no describe under test/e2e/ names it', () => {
    for (const e2e of [undefined, "describe('amctl runs', () => {})\n", "it('amctl runs logs', () => {})\n"]) {
      const root = tree({'test/e2e/commands/runs.test.ts': e2e})
      expect(missingPieces(root, logs(root))).toEqual([
        "amctl runs logs: no end-to-end test. Add describe('amctl runs logs', …) to a file of test/e2e/commands/ (the built CLI against the dev server: useE2E, test/e2e/helpers.ts)",
      ])
    }
  })

  it('a command without static operations', () => {
    const root = tree()
    expect(missingPieces(root, logs(root, {}))).toEqual([
      "amctl runs logs: no static operations. Declare what it sends in src/commands/runs/logs.ts: static operations: OperationId[] = ['<operationId>', …] ([] when it sends nothing)",
    ])
  })
})

describe('describedCommands', () => {
  const ids = [
    'auth:login',
    'auth:status',
    'auth:token',
    'auth:logout',
    'evals:stats',
    'tokens:create',
    'config:get',
    'config:set',
    'help',
    'runs:list',
  ]
  it('reads `amctl <command>` at the start of a title, the longest command its words begin with, and more verbs after " / "', () => {
    const named = describedCommands(
      [
        'amctl auth login (device flow) / status / token',
        'amctl evals stats against the dev server',
        'amctl tokens create, and AMCTL_TOKEN',
        'amctl config set / get',
        'amctl help <topic>',
        'amctl --help',
        'runs list (no amctl first)',
      ],
      ids,
    )
    expect([...named].sort()).toEqual([
      'auth:login',
      'auth:status',
      'auth:token',
      'config:get',
      'config:set',
      'evals:stats',
      'help',
      'tokens:create',
    ])
  })
})
