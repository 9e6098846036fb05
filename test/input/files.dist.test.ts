import {execFileSync, spawn} from 'node:child_process'
import {readdirSync, readlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, onTestFinished} from 'vitest'
import {BIN} from '../helpers/bin.js'
import {tempDir} from '../helpers/temp.js'
import {sealedEnv} from '../helpers/env.js'

// src/input/files.ts in the built CLI: a signal while a FIFO blocks the open.

function readlinkOr(path: string): string | undefined {
  try {
    return readlinkSync(path)
  } catch {
    return undefined
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('Ctrl-C while a FIFO waits for its writer', () => {
  it('ends the command at once with exit 130, before any request', async () => {
    const dir = tempDir('amctl-files-')
    const fifo = join(dir, 'pipe')
    execFileSync('mkfifo', [fifo], {env: sealedEnv()})
    const child = spawn(process.execPath, [BIN, 'runs', 'fork', 'run_1', '-F', `note=@${fifo}`], {
      env: sealedEnv({
        AMCTL_TOKEN: 'svc_test_token_1234',
        AMCTL_CONFIG_DIR: join(dir, 'config'),
        AMCTL_BASE_URL: 'http://127.0.0.1:9',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    onTestFinished(() => void child.kill('SIGKILL'))
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    // interrupt once it holds the FIFO open, waiting for a writer
    await until(() => readdirSync(`/proc/${child.pid}/fd`).some((fd) => readlinkOr(`/proc/${child.pid}/fd/${fd}`) === fifo))
    child.kill('SIGINT')
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(130)
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
