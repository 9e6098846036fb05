import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runBin, runOnTerminal} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'
import {machinePath} from '../helpers/env.js'

// bin/run.cjs, the entry: a checkout without a build, and a failure outside any command (the
// route through src/base/failure.ts that BaseCommand.catch shares: test/base/failure.test.ts).

describe('without a build (a failed build, `npm ci --ignore-scripts`)', () => {
  /** The entry and its launcher with package.json, and no dist/. */
  function unbuilt() {
    const root = tempDir('amctl-unbuilt-')
    mkdirSync(join(root, 'bin'))
    for (const file of ['bin/run.cjs', 'bin/launcher.cjs', 'package.json']) cpSync(join(ROOT, file), join(root, file))
    return root
  }
  const run = (root: string, ...argv: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin', 'run.cjs'), ...argv], {
      encoding: 'utf8',
      env: {PATH: machinePath(), HOME: tempDir('amctl-unbuilt-home-')},
    })

  it.each([[['config', 'list']], [['--help']], [['runs', 'list', '--json']], [[]]])(
    'amctl %j: one error line saying to run `npm run build`, exit 1',
    (argv) => {
      const root = unbuilt()
      const r = run(root, ...argv)
      expect(r.status).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(
        `error: amctl is not built: ${join(root, 'dist', 'amctl.cjs')} is missing; run \`npm run build\` in ${root} (internal)\n`,
      )
    },
  )

  it('--version still answers (it needs no bundle)', () => {
    const r = run(unbuilt(), '--version')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^amctl\/\d+\.\d+\.\d+ /)
  })
})

describe('a failure outside a command (an unknown command): the rules of one inside', () => {
  it('--json: the error document on stdout; after `--` or with --jq, the line on stderr', async () => {
    const json = await runBin(['runs', 'lst', '--json'])
    expect(json.exitCode).toBe(2)
    expect(JSON.parse(json.stdout).error).toMatchObject({code: 'invalid_request', message: 'unknown command "runs lst"'})
    expect(json.stderr).toBe('')
    for (const argv of [
      ['runs', 'lst', '--', '--json'],
      ['runs', 'lst', '--json', '--jq', '.'],
    ]) {
      const line = await runBin(argv)
      expect(line.exitCode, argv.join(' ')).toBe(2)
      expect(line.stdout, argv.join(' ')).toBe('')
      expect(line.stderr, argv.join(' ')).toMatch(/^error: unknown command "runs lst" \(invalid_request\)\n/)
    }
  })

  it('on a terminal: the line in red, as a command’s own error is', async () => {
    const r = await runOnTerminal(['runs', 'lst'])
    expect(r.exitCode).toBe(2)
    expect(r.screen).toContain('\u001b[31merror: unknown command "runs lst" (invalid_request)\u001b[39m')
  })
})
