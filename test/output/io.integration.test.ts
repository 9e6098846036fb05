import {execFileSync} from 'node:child_process'
import {closeSync, constants, openSync} from 'node:fs'
import {type AddressInfo, connect, createServer, type Socket} from 'node:net'
import {join} from 'node:path'
import {Writable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {DirectStdout, mayBeTerminal} from '../../src/output/io.js'
import {sealedEnv} from '../helpers/env.js'
import {tempDir} from '../helpers/temp.js'

// src/output/io.ts with what only more than the process gives (the integration project; the
// rest in ./io.test.ts): a descriptor that is a socket, a FIFO whose reader went away.

describe('mayBeTerminal (asked before a stream is made for the descriptor)', () => {
  it('a file and a socket never are; a character device may be', async () => {
    const file = openSync(join(tempDir('amctl-io-'), 'out.txt'), 'w')
    expect(mayBeTerminal(file)).toBe(false)
    closeSync(file)
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const socket: Socket = connect((server.address() as AddressInfo).port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    expect(mayBeTerminal((socket as unknown as {_handle: {fd: number}})._handle.fd)).toBe(false)
    socket.destroy()
    await new Promise((resolve) => server.close(resolve))
    const devNull = openSync('/dev/null', 'w')
    expect(mayBeTerminal(devNull)).toBe(true)
    closeSync(devNull)
  })
})

describe('DirectStdout (stdout a pipe or a file)', () => {
  it('a write that meets a reader gone (EPIPE): the stream takes it over, and says so its own way (exit 0, bin/run.cjs)', () => {
    const dir = tempDir('amctl-fifo-')
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo], {env: sealedEnv()})
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
    closeSync(reader)
    const later: string[] = []
    const out = new DirectStdout(writer, () => new Writable({write: (chunk, _e, done) => done(void later.push(chunk.toString()))}))
    expect(out.write('gone?\n')).toBe(true)
    expect(later).toEqual(['gone?\n'])
    closeSync(writer)
  })
})
