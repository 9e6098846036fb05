import {spawn, spawnSync} from 'node:child_process'
import {cpSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'
import {machinePath, runHome, sealedEnv} from '../helpers/env.js'

// The build runs in a copy of the project (sources, bin/, patches/, package.json, node_modules
// linked; no manifest: the build makes it), so these tests never disturb the dist/ the other tests
// use.
const copy = tempDir('amctl-build-')
for (const entry of ['bin', 'src', 'patches', 'package.json']) cpSync(join(ROOT, entry), join(copy, entry), {recursive: true})
symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))

function build(): Promise<number | null> {
  return new Promise((resolve) =>
    spawn(process.execPath, [join(copy, 'bin', 'build.js')], {cwd: copy, stdio: 'ignore', env: sealedEnv()}).on('close', resolve),
  )
}

const amctl = (...args: (string | Record<string, string>)[]) => {
  const argv = args.filter((a): a is string => typeof a === 'string')
  const env = args.find((a): a is Record<string, string> => typeof a !== 'string')
  return spawnSync(process.execPath, [join(copy, 'bin', 'run.cjs'), ...argv], {
    encoding: 'utf8',
    env: {PATH: machinePath(), HOME: runHome(), ...env},
  })
}

describe('bin/build.js', () => {
  it('two builds at once both succeed and leave one working dist/, with no staging directory behind', async () => {
    expect(await Promise.all([build(), build()])).toEqual([0, 0])
    expect(
      readdirSync(copy)
        .filter((name) => name.startsWith('dist'))
        .sort(),
    ).toEqual(['dist'])
    const help = amctl('runs', 'list', '--help')
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('List runs of the organization')
  }, 60_000)

  it('edit, build, see: a description changed in src/ is in --help, `help`, help drawn at run time and the manifest after `npm run build` alone', async () => {
    const file = join(copy, 'src', 'commands', 'runs', 'fork.ts')
    const source = readFileSync(file, 'utf8')
    // (the summary as it stands: whatever src/ says now, read from the manifest of the checkout)
    const summary = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).commands['runs:fork'].summary as string
    const old = `static override summary = '${summary}'`
    expect(source).toContain(old)
    const text = 'Fork a run, a summary edited by the test'
    writeFileSync(file, source.replace(old, `static override summary = '${text}'`))
    expect(await build()).toBe(0)
    for (const argv of [
      ['runs', 'fork', '--help'],
      ['help', 'runs', 'fork'],
      ['runs', '--help'],
    ]) {
      const r = amctl(...argv)
      expect(r.status, argv.join(' ')).toBe(0)
      expect(r.stdout, argv.join(' ')).toContain(text)
      expect(r.stdout, argv.join(' ')).not.toContain(summary)
    }
    // drawn by oclif at run time (a terminal's first help) from the manifest the build made
    const drawn = amctl('runs', 'fork', '--help', {AMCTL_HELP_CACHE: 'off'})
    expect(drawn.stdout).toContain(text)
    const manifest = JSON.parse(readFileSync(join(copy, 'oclif.manifest.json'), 'utf8'))
    expect(manifest.commands['runs:fork'].summary).toBe(text)
    writeFileSync(file, source)
  }, 120_000)

  it('npm run demo does not rebuild when the build is newer than every source', async () => {
    // the demo's first step; with a current build its first line is the dev server it starts
    const future = new Date(Date.now() + 60_000)
    utimesSync(join(copy, 'dist', 'amctl.cjs'), future, future)
    const demo = spawn(process.execPath, [join(copy, 'bin', 'demo.js')], {
      cwd: copy,
      env: {PATH: machinePath(), HOME: runHome(), NO_COLOR: '1'},
    })
    const first = await new Promise<string>((resolve) => {
      let out = ''
      demo.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.trim().includes('\n') || out.includes('$ amctl')) resolve(out.trim().split('\n')[0])
      })
    })
    demo.kill('SIGTERM')
    expect(first).toMatch(/^\$ amctl dev server/)
  }, 60_000)
})
