import {type AddressInfo, createServer} from 'node:net'
import {describe, expect, it, onTestFinished} from 'vitest'
import Api from '../../src/commands/api.js'
import {runCommand} from '../helpers/cli.js'

// Contract 1.4 where only a real HTTP parser tells what reaches amctl: a server's raw bytes (a
// socket: the integration project; the rest in ./terminal-safety.test.ts).

const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

describe('server text on a terminal is written visibly, never obeyed', () => {
  it('--verbose lines: a request id from the server (C1 bytes pass HTTP parsing; C0 ones do not)', async () => {
    // a raw server: Node's own would refuse to send such a header
    const raw = createServer((socket) =>
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: a\x9b2Jb\x85c\r\nContent-Length: 2\r\n\r\n{}',
          'latin1',
        ),
      ),
    )
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => void raw.close())
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`
    const r = await runCommand(Api, ['/me', '--verbose'], {
      env: {AMCTL_TOKEN: 'svc_safe_token_1234', AMCTL_BASE_URL: url},
      stderrTTY: true,
      transport: 'network',
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toContain('request-id a\\u009b2Jb\\u0085c')
    expect(r.stderr).not.toMatch(RAW)
  })
})
