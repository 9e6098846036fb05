import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
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
