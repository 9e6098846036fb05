import {closeSync, openSync} from 'node:fs'
import {type AddressInfo, connect, createServer, type Socket} from 'node:net'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {mayBeTerminal} from '../../src/output/io.js'
import {tempDir} from '../helpers/temp.js'

// What a descriptor may be, asked of real ones: a file, a socket of its own (a socket: the
// integration project; the rest of src/output/io.ts in ./io.test.ts), a character device.

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
