import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runOnTerminal} from '../helpers/bin.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'

// amctl on a real terminal: `script` gives it a pseudo-terminal, and Ctrl-C is typed into it
// (the terminal turns it into SIGINT for amctl), as a person would.

let server: TestServer
beforeAll(async () => {
  // the first page at once, the second never: amctl waits with its progress line shown
  server = await startServer((req, res) => {
    if (req.path.includes('cursor=')) return
    sendJson(res, 200, {
      items: [
        {id: 'run_1', status: 'running', evalSetId: 'es_1', createdAt: '2026-01-01T00:00:00Z'},
        {id: 'run_2', status: 'queued', evalSetId: 'es_1', createdAt: '2026-01-01T00:00:00Z'},
      ],
      nextCursor: 'c1',
    })
  })
})
afterAll(() => server.server.closeAllConnections())
afterAll(() => server.close())

describe('Ctrl-C on a terminal', () => {
  it('while `runs list --all` waits for a page: exit 130, and the progress line is erased before the newline, not left above it', async () => {
    const {exitCode, screen} = await runOnTerminal(['runs', 'list', '--all', '--org', 'acme'], {
      env: {AMCTL_BASE_URL: server.url, AMCTL_TOKEN: 'svc_terminal_test_1234'},
      ctrlC: 'fetched 2 runs…',
    })
    expect(exitCode, screen).toBe(130)
    expect(screen).toContain('run_1')
    const tail = screen.slice(screen.lastIndexOf('fetched 2 runs…') + 'fetched 2 runs…'.length)
    // what follows the line: the terminal's echo of ^C, the erase, then the newline, and nothing after
    expect(tail).toMatch(/^(\^C)?\r\u001b\[2K\r?\n$/)
  })
})
