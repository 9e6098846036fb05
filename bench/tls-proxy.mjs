// An HTTPS API behind a proxy, on this machine, for measuring amctl's requests through a proxy
// (the only ones that load undici: src/core/http/transport.ts): a CONNECT proxy that tunnels every
// CONNECT, whatever host it names, to an HTTPS server that forwards each request to the dev server
// (with the dev server's own Host: it answers no other).
// amctl runs with AMCTL_BASE_URL=https://amctl.test, HTTPS_PROXY=<proxy> and NODE_EXTRA_CA_CERTS=<cert>
// (a certificate made here for amctl.test by openssl), so it verifies TLS as it does against a real
// API. Prints one JSON line, {"proxy", "cert"}, then serves until SIGINT or SIGTERM.
//   node bench/tls-proxy.mjs DEV_SERVER_URL WORK_DIR

import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createServer, request} from 'node:http'
import {createServer as createHttpsServer} from 'node:https'
import {connect} from 'node:net'
import {join} from 'node:path'

const [upstream, work] = process.argv.slice(2)
const key = join(work, 'amctl.test.key')
const cert = join(work, 'amctl.test.crt')
const made = spawnSync(
  'openssl',
  [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
    ...['-subj', '/CN=amctl.test', '-addext', 'subjectAltName=DNS:amctl.test', '-keyout', key, '-out', cert],
  ],
  {encoding: 'utf8'},
)
if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`)

const api = new URL(upstream)
/** Pipes two sockets into each other; either closing closes both. */
const join2 = (a, b) => {
  a.pipe(b).pipe(a)
  for (const [x, y] of [
    [a, b],
    [b, a],
  ])
    x.on('error', () => y.destroy()).on('close', () => y.destroy())
}
const tls = createHttpsServer({key: readFileSync(key), cert: readFileSync(cert)}, (req, res) => {
  const forward = request(
    {host: api.hostname, port: api.port, method: req.method, path: req.url, headers: {...req.headers, host: api.host}},
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers)
      answer.pipe(res)
    },
  )
  forward.on('error', () => res.destroy())
  req.pipe(forward)
})
await new Promise((resolve) => tls.listen(0, '127.0.0.1', resolve))
const proxy = createServer((_req, res) => res.writeHead(405).end())
proxy.on('connect', (_req, client, head) => {
  const tunnel = connect(tls.address().port, '127.0.0.1', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) tunnel.write(head)
    join2(client, tunnel)
  })
  tunnel.on('error', () => client.destroy())
})
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve))
process.stdout.write(`${JSON.stringify({proxy: `http://127.0.0.1:${proxy.address().port}`, cert})}\n`)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))
