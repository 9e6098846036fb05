import {Worker} from 'node:worker_threads'

/**
 * A keep-alive HTTP server on 127.0.0.1 that closes a connection once it has been idle `idleMs`
 * without saying so beforehand (no `Keep-Alive: timeout=`, no `Connection: close`), as many
 * servers and load balancers do. It runs in a worker thread of its own, so that it keeps its time
 * while the test's thread is busy: `pause` blocks the test's event loop as a long computation
 * does (the gate judging 10,000 groups), and the server closes the connection amctl keeps in the
 * meantime, which amctl's event loop has not yet seen when the pause ends.
 *
 * Every request is answered at once: 201 to a POST, 200 to anything else, `{"method","path"}`.
 */

export interface IdleServerOptions {
  /** close a connection idle this long; 0: never */
  idleMs: number
  /** close it with a reset (RST) rather than the ordinary close (FIN) */
  reset?: boolean
  /** a Keep-Alive header to announce on every answer (`timeout=2`) */
  keepAlive?: string
}

export interface IdleServer {
  url: string
  /** connections closed for being idle */
  idleClosed(): number
  requests(): number
  posts(): number
  connections(): number
  /**
   * Blocks this thread (its event loop does nothing meanwhile) until the server has closed
   * `count` idle connections, then `afterMs` more: long enough for the close to reach this
   * machine's socket, as it would during a long computation. Throws after 10 s.
   */
  pauseUntilClosed(count: number, afterMs?: number): void
  close(): Promise<void>
}

const COUNTS = {idleClosed: 0, requests: 1, connections: 2, posts: 3}

/** Blocks this thread `ms` (Atomics.wait on a value that never changes). */
export function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

export async function startIdleServer(options: IdleServerOptions): Promise<IdleServer> {
  const shared = new SharedArrayBuffer(4 * Object.keys(COUNTS).length)
  const counts = new Int32Array(shared)
  // (the server reads no environment: an empty one, never the test process's)
  const worker = new Worker(new URL('./idle-server-worker.mjs', import.meta.url), {
    env: {},
    workerData: {shared, idleMs: options.idleMs, reset: options.reset === true, keepAlive: options.keepAlive},
  })
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    url: `http://127.0.0.1:${port}`,
    idleClosed: () => Atomics.load(counts, COUNTS.idleClosed),
    requests: () => Atomics.load(counts, COUNTS.requests),
    posts: () => Atomics.load(counts, COUNTS.posts),
    connections: () => Atomics.load(counts, COUNTS.connections),
    pauseUntilClosed(count, afterMs = 50) {
      const until = 10_000
      for (let seen = Atomics.load(counts, COUNTS.idleClosed); seen < count; seen = Atomics.load(counts, COUNTS.idleClosed)) {
        if (Atomics.wait(counts, COUNTS.idleClosed, seen, until) === 'timed-out') {
          throw new Error(`the server closed ${seen} idle connections in ${until / 1000} s, not ${count}`)
        }
      }
      blockThread(afterMs)
    },
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve))
      worker.postMessage('close')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())])
      await worker.terminate()
    },
  }
}
