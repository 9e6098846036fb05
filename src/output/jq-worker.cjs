'use strict'
// The jq engine of `--jq`, in a worker thread of its own (src/output/jq.ts starts it). jq runs
// synchronously inside its WebAssembly: on the main thread a long program would hold everything
// up, Ctrl-C included, and jq-wasm collects all of jq's output before returning it (`repeat(1)`
// grew without end). Here the main thread stays free to take Ctrl-C and to write, and jq's
// output reaches it as jq writes it:
//   - jq runs with --unbuffered (each result is written when it is complete), and its writes to
//     stdout and stderr (the WASI import `fd_write`) are taken over before they reach jq-wasm's
//     buffers: stdout goes into a ring buffer shared with the main thread, stderr is kept for the end;
//   - the ring holds RING bytes: when it is full, jq waits (Atomics.wait) until the main thread
//     has taken some out, so a slow or closed reader costs no memory and nothing waits in here.
// CommonJS in plain JavaScript, not TypeScript: the worker is started from this file, beside the
// sources and, copied by bin/build.js, beside dist/jq.cjs, which carries jq-wasm in the build.
//
// workerData: {ring: SharedArrayBuffer of 12 + RING bytes} — two Int32 counters of bytes written
// and taken (they wrap; their difference is what the ring holds), a flag the main thread sets
// while it waits for bytes (only then is it woken), then the bytes.
// Messages in:  {type: 'compile', expression}  {type: 'run', input, expression}
// Messages out: {type: 'compiled', exitCode, stderr}  {type: 'done', exitCode, stderr}
//               {type: 'crash', message, name, stderr}  (jq aborted: out of memory, or too deep)
const {readFileSync} = require('node:fs')
const {join} = require('node:path')
const {parentPort, workerData} = require('node:worker_threads')

// the WASI import that writes to a file descriptor, as the pinned jq.wasm names it (module "a")
const FD_WRITE = 'd'
const WRITTEN = 0
const TAKEN = 1
const WAITING = 2

// jq-wasm: bundled as ./jq.cjs beside this file in dist/; the package itself beside the sources
let glue
let wasmPath
try {
  glue = require('./jq.cjs')
  wasmPath = join(__dirname, 'jq.wasm')
} catch {
  glue = require('jq-wasm')
  wasmPath = require.resolve('jq-wasm/jq.wasm')
}

const counters = new Int32Array(workerData.ring, 0, 3)
const ring = new Uint8Array(workerData.ring, 12)
let stderr = []
let memory

// Emscripten reports an abort with console.error ("Aborted()") before throwing: that line is not
// for the user, who gets amctl's own error instead
console.error = () => {}
console.warn = () => {}

/** Copies `bytes` into the ring, waiting for room whenever it is full. */
function toRing(bytes) {
  let written = Atomics.load(counters, WRITTEN)
  for (let done = 0; done < bytes.length; ) {
    const taken = Atomics.load(counters, TAKEN)
    const room = ring.length - ((written - taken) | 0)
    if (room === 0) {
      Atomics.wait(counters, TAKEN, taken)
      continue
    }
    const at = (written >>> 0) % ring.length
    const n = Math.min(room, bytes.length - done, ring.length - at)
    ring.set(bytes.subarray(done, done + n), at)
    done += n
    written = (written + n) | 0
    Atomics.store(counters, WRITTEN, written)
    if (Atomics.load(counters, WAITING) === 1) Atomics.notify(counters, WRITTEN)
  }
}

/** jq's fd_write for its stdout (1) and stderr (2): the bytes of each iovec, taken here. */
function fdWrite(original) {
  return (fd, iov, iovcnt, pnum) => {
    if (fd !== 1 && fd !== 2) return original(fd, iov, iovcnt, pnum)
    const view = new DataView(memory.buffer)
    let written = 0
    for (let i = 0; i < iovcnt; i++) {
      const ptr = view.getUint32(iov + i * 8, true)
      const len = view.getUint32(iov + i * 8 + 4, true)
      if (len === 0) continue
      const bytes = new Uint8Array(memory.buffer, ptr, len)
      written += len
      if (fd === 2) stderr.push(bytes.slice())
      else toRing(bytes)
    }
    new DataView(memory.buffer).setUint32(pnum, written, true)
    return 0
  }
}

const engine = WebAssembly.compile(readFileSync(wasmPath)).then((module) =>
  glue.loadJq({
    instantiateWasm(imports, onSuccess) {
      if (typeof imports.a?.[FD_WRITE] !== 'function') throw new Error('jq.wasm has no fd_write import where amctl expects it')
      imports.a[FD_WRITE] = fdWrite(imports.a[FD_WRITE])
      WebAssembly.instantiate(module, imports).then((instance) => {
        memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory)
        onSuccess(instance, module)
      })
    },
  }),
)

// compact output, each result written as soon as it is complete, and `--` so that an expression
// starting with `-` (`-.count`, `-h`) is the expression, never one of jq's options
const FLAGS = ['-c', '--unbuffered', '--']
const text = (chunks) => Buffer.concat(chunks).toString('utf8')

parentPort.on('message', async (message) => {
  let jq
  try {
    jq = await engine
  } catch (error) {
    parentPort.postMessage({type: 'crash', message: `could not load the jq engine: ${error.message}`, stderr: ''})
    return
  }
  stderr = []
  try {
    if (message.type === 'compile') {
      // jq given no input compiles the expression and runs nothing
      const {exitCode} = jq.raw('', message.expression, FLAGS)
      parentPort.postMessage({type: 'compiled', exitCode, stderr: text(stderr)})
      return
    }
    const {exitCode} = jq.raw(message.input, message.expression, FLAGS)
    parentPort.postMessage({type: 'done', exitCode, stderr: text(stderr)})
  } catch (error) {
    // an abort (out of memory: jq-wasm's heap stops at 256 MiB, and jq's own call stack lives
    // there, so a recursion too deep ends there too) or V8's stack limit: the engine is spent
    parentPort.postMessage({type: 'crash', message: String(error?.message ?? error), name: error?.name, stderr: text(stderr)})
  }
})
