import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import Version from '../../src/commands/version.js'
import {ROOT, runCommand} from '../helpers/cli.js'
import {sealedEnv} from '../helpers/env.js'

const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
const FIRST = `amctl/${pjson.version} ${process.platform}-${process.arch} node-${process.version}`
const buildInfo = join(ROOT, 'dist', 'build-info.json')

describe('amctl version (as gh has it)', () => {
  it('prints what --version prints, byte for byte, piped or on a terminal', async () => {
    const launcher = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.cjs'), '--version'], {encoding: 'utf8', env: sealedEnv()})
    expect(launcher.stdout.split('\n')[0]).toBe(FIRST)
    for (const tty of [false, true]) {
      const r = await runCommand(Version, [], {tty})
      expect(r).toMatchObject({exitCode: 0, stdout: launcher.stdout, stderr: ''})
    }
  })

  it('--json: the version, platform, architecture and Node, and the commit and its date when the build knows them', async () => {
    const r = await runCommand(Version, ['--json'])
    const built = existsSync(buildInfo) ? (JSON.parse(readFileSync(buildInfo, 'utf8')) as {commit: string; date: string}) : {}
    expect(JSON.parse(r.stdout)).toEqual({
      version: pjson.version,
      platform: process.platform,
      arch: process.arch,
      node: process.version,
      ...built,
    })
    const jq = await runCommand(Version, ['-q', '.version'])
    expect(jq.stdout).toBe(`${pjson.version}\n`)
  })
})
