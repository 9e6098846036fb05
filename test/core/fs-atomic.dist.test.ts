import {spawn} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {builtModule} from '../helpers/bin.js'
import {tempDir} from '../helpers/temp.js'
import {sealedEnv} from '../helpers/env.js'

// src/core/fs-atomic.ts as built (dist/), in child processes: what one process cannot show.
const DIST_ATOMIC = builtModule('core/fs-atomic.js')

describe('writeFileAtomic across processes', () => {
  it('a process killed while rewriting leaves the old or the new content, never a mix', async () => {
    const d = tempDir('amctl-atomic-')
    const file = join(d, 'state.json')
    const a = JSON.stringify({v: 'a'.repeat(4 << 20)})
    const b = JSON.stringify({v: 'b'.repeat(4 << 20)})
    writeFileSync(file, a)
    const script = `
        import {writeFileAtomic} from ${JSON.stringify(DIST_ATOMIC)}
        const a = JSON.stringify({v: 'a'.repeat(4 << 20)}), b = JSON.stringify({v: 'b'.repeat(4 << 20)})
        for (let i = 0; ; i++) {
          writeFileAtomic(${JSON.stringify(file)}, i % 2 ? a : b)
          if (i === 10) process.stdout.write('rewriting\\n')
        }
      `
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'inherit'], env: sealedEnv()})
    // killed once it has rewritten the file ten times, in the middle of the rewrites that follow
    // (however slow the machine: not after a time of the test's)
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    const content = readFileSync(file, 'utf8')
    expect(content === a || content === b).toBe(true)
  })
})

describe('ensurePrivateDir in a child with a time limit', () => {
  it.runIf(process.platform === 'linux')('fails at once where mkdir answers ENOENT under a parent (/proc)', async () => {
    // Node's own recursive mkdir never returns here: run it in a child with a time limit
    const script = `
      import {ensurePrivateDir} from ${JSON.stringify(DIST_ATOMIC)}
      try { ensurePrivateDir('/proc/self/amctl/x') } catch (e) { process.stdout.write(e.message) }
    `
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'pipe'], env: sealedEnv()})
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])))
    clearTimeout(killer)
    const expected = 'cannot create directory /proc/self/amctl: no such file or directory (ENOENT)'
    expect({code, signal, out}).toEqual({code: 0, signal: null, out: expected})
  })
})
