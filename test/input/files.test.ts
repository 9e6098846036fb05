import {execFileSync, spawn} from 'node:child_process'
import {closeSync, openSync, readdirSync, readlinkSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {describe, expect, it, onTestFinished} from 'vitest'
import {UsageError} from '../../src/core/errors.js'
import {MAX_INPUT_BYTES, readStream, readText} from '../../src/input/files.js'
import {BIN} from '../helpers/bin.js'
import {tempDir} from '../helpers/temp.js'

const none = Readable.from([])

async function refusal(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(UsageError)
  expect((error as UsageError).exitCode).toBe(2)
  return error as UsageError
}

describe('readText: @file and --input FILE|- (contract 3)', () => {
  it('reads a regular file and stdin', async () => {
    const file = join(tempDir('amctl-files-'), 'body.json')
    writeFileSync(file, '{"a":1}\n')
    expect(await readText(file, none, '--input')).toBe('{"a":1}\n')
    expect(await readText('-', Readable.from([Buffer.from('from '), Buffer.from('stdin')]), '--input')).toBe('from stdin')
  })

  it('reads a FIFO once a writer comes (what `--input <(jq …)` hands over)', async () => {
    const fifo = join(tempDir('amctl-files-'), 'pipe')
    execFileSync('mkfifo', [fifo])
    const reading = readText(fifo, none, '--input')
    const writer = spawn('sh', ['-c', `printf '{"from":"fifo"}' > '${fifo}'`])
    expect(await reading).toBe('{"from":"fifo"}')
    await new Promise((resolve) => writer.on('close', resolve))
  })

  it('refuses a device at once, without reading it (@/dev/zero once read 11 GB)', async () => {
    const e = await refusal(readText('/dev/zero', none, '-F data'))
    expect(e.message).toBe('-F data: cannot read "/dev/zero" (it is a device, not a file or a pipe)')
  })

  it('refuses a directory and a missing file, naming them', async () => {
    const dir = tempDir('amctl-files-')
    expect((await refusal(readText(dir, none, '--input'))).message).toBe(`--input: cannot read "${dir}" (it is a directory)`)
    expect((await refusal(readText(join(dir, 'nope.json'), none, '--input'))).message).toMatch(/\(no such file\)$/)
  })

  it('refuses a regular file over 64 MiB from its size, before reading it', async () => {
    const big = join(tempDir('amctl-files-'), 'big.json')
    closeSync(openSync(big, 'w'))
    truncateSync(big, MAX_INPUT_BYTES + 1) // sparse: no 64 MiB written to disk
    expect((await refusal(readText(big, none, '--input'))).message).toBe(`--input: "${big}" is larger than 64 MiB`)
  })

  it('stops reading a pipe or stdin past 64 MiB', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61)
    let sent = 0
    const endless = new Readable({
      read() {
        sent += chunk.length
        this.push(chunk)
      },
    })
    expect((await refusal(readStream(endless, '--input', 'standard input'))).message).toBe('--input: standard input is larger than 64 MiB')
    expect(sent).toBeLessThanOrEqual(MAX_INPUT_BYTES + 4 * chunk.length)
  })
})

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
    execFileSync('mkfifo', [fifo])
    const child = spawn(process.execPath, [BIN, 'runs', 'fork', 'run_1', '-F', `note=@${fifo}`], {
      env: {
        PATH: process.env.PATH,
        AMCTL_TOKEN: 'svc_test_token_1234',
        AMCTL_CONFIG_DIR: join(dir, 'config'),
        AMCTL_BASE_URL: 'http://127.0.0.1:9',
      },
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
