import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo, Socket} from 'node:net'

/**
 * A real node:http server on 127.0.0.1 that records every request (method, path, headers,
 * body) and answers through a handler the test supplies. Not a mock: for tests of the transport
 * itself (sockets, proxies) and for the built CLI in a child process. In-process tests fake
 * the API with ./fake-api.ts, a transport their world hands the commands.
 */

export interface Recorded {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>

export interface TestServer {
  url: string
  requests: Recorded[]
  server: Server
  /**
   * Resolves once every connection a client opened has closed, so each request it sent has been
   * read and recorded. A client in a child process closes its connections when it exits; the
   * exit and the last bytes it sent reach the test's event loop in either order, so a test that
   * counts the requests of a finished child awaits this first.
   */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.statusCode = 500
        res.end(String(error))
      })
    })
  })
  const open = new Set<Socket>()
  let onSettled: (() => void) | undefined
  server.on('connection', (socket: Socket) => {
    open.add(socket)
    socket.on('close', () => {
      open.delete(socket)
      if (open.size === 0) onSettled?.()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    settled: () =>
      new Promise<void>((resolve) => {
        if (open.size === 0) return resolve()
        onSettled = resolve
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {'content-type': 'application/json', ...headers})
  res.end(JSON.stringify(body))
}
