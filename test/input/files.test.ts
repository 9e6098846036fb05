import {closeSync, openSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/core/errors.js'
import {MAX_INPUT_BYTES, readStream, readText} from '../../src/input/files.js'
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
