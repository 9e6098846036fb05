import {execFileSync, spawn} from 'node:child_process'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {readText} from '../../src/input/files.js'
import {sealedEnv} from '../helpers/env.js'
import {tempDir} from '../helpers/temp.js'

// A FIFO and a writer of its own (mkfifo and sh, programs: the integration project; the rest of
// readText in ./files.test.ts).

const none = Readable.from([])

describe('readText: @file and --input FILE|- (contract 3)', () => {
  it('reads a FIFO once a writer comes (what `--input <(jq …)` hands over)', async () => {
    const fifo = join(tempDir('amctl-files-'), 'pipe')
    execFileSync('mkfifo', [fifo], {env: sealedEnv()})
    const reading = readText(fifo, none, '--input')
    const writer = spawn('sh', ['-c', `printf '{"from":"fifo"}' > '${fifo}'`], {env: sealedEnv()})
    // listened for at once: the writer may be gone before the read resolves
    const closed = new Promise((resolve) => writer.on('close', resolve))
    expect(await reading).toBe('{"from":"fifo"}')
    await closed
  })
})
