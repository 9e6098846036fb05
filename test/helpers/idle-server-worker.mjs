// The server of ./idle-server.ts, in a worker thread of its own so that it keeps time and closes
// connections while the test's thread is blocked. Plain JavaScript: a worker thread does not go
// through vitest's transform.
import {createServer} from 'node:http'
import {parentPort, workerData} from 'node:worker_threads'

const {shared, idleMs, reset, keepAlive} = workerData
// [idle connections closed, requests, connections, POST requests]: ./idle-server.ts reads them
const counts = new Int32Array(shared)
/** each connection's idle timer */
const timers = new WeakMap()

/** Closes `socket` once it has been idle `idleMs` (0: never), without a word: no header said when. */
function idle(socket) {
  if (idleMs === 0) return
  clearTimeout(timers.get(socket))
  timers.set(
    socket,
    setTimeout(() => {
      if (reset) socket.resetAndDestroy()
      else socket.destroy()
      Atomics.add(counts, 0, 1)
      Atomics.notify(counts, 0)
    }, idleMs),
  )
}

const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    Atomics.add(counts, 1, 1)
    if (req.method === 'POST') Atomics.add(counts, 3, 1)
    // with `keepAlive`, the header a server announces its idle timeout in
    res.writeHead(req.method === 'POST' ? 201 : 200, {
      'content-type': 'application/json',
      ...(keepAlive === undefined ? {} : {'keep-alive': keepAlive}),
    })
    res.end(JSON.stringify({method: req.method, path: req.url}))
    const {socket} = req
    res.on('finish', () => idle(socket))
  })
})
// node:http's own idle timeout would announce itself (Keep-Alive: timeout=5): the one above is the test's
server.keepAliveTimeout = 0
server.on('connection', (socket) => {
  Atomics.add(counts, 2, 1)
  // a request coming in is not idle
  socket.on('data', () => clearTimeout(timers.get(socket)))
})

parentPort.on('message', (message) => {
  if (message === 'close') {
    server.closeAllConnections()
    server.close(() => parentPort.close())
  }
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port))
