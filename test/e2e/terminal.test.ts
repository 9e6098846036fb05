import {spawn} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {binCommand, freshConfigDir} from '../helpers/bin.js'
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

/** Runs amctl under `script` (a pseudo-terminal); `type` is called with a function that types into it. */
function onTerminal(argv: string[], whenShown: string): Promise<{exitCode: number | null; screen: string}> {
  const [file, args] = binCommand(argv)
  const command = [file, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TERM: 'xterm',
      AMCTL_BASE_URL: server.url,
      AMCTL_TOKEN: 'svc_terminal_test_1234',
      AMCTL_CONFIG_DIR: freshConfigDir(),
      AMCTL_KEYCHAIN: 'off',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let screen = ''
  let typed = false
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8')
    if (!typed && screen.includes(whenShown)) {
      typed = true
      child.stdin.write('\u0003') // Ctrl-C
    }
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      resolve({exitCode, screen})
    })
  })
}

describe('Ctrl-C on a terminal', () => {
  it('while `runs list --all` waits for a page: exit 130, and the progress line is erased before the newline, not left above it', async () => {
    const {exitCode, screen} = await onTerminal(['runs', 'list', '--all', '--org', 'acme'], 'fetched 2 runs…')
    expect(exitCode, screen).toBe(130)
    expect(screen).toContain('run_1')
    const tail = screen.slice(screen.lastIndexOf('fetched 2 runs…') + 'fetched 2 runs…'.length)
    // what follows the line: the terminal's echo of ^C, the erase, then the newline, and nothing after
    expect(tail).toMatch(/^(\^C)?\r\u001b\[2K\r?\n$/)
  })
})
