// A small keep-alive load generator (undici Pool): `connections` requests in flight against one
// URL for `seconds`; prints {"requests","rps","p50","p99","errors"} as JSON. Used for the dev
// server figure, where no target is set: the number is there so a regression shows.
import {Pool} from 'undici'

const [url, seconds = '5', connections = '16'] = process.argv.slice(2)
const target = new URL(url)
const pool = new Pool(target.origin, {connections: Number(connections), pipelining: 1})
const headers = {authorization: `Bearer ${process.env.AMCTL_TOKEN}`}
const latencies = []
let errors = 0
const deadline = performance.now() + Number(seconds) * 1000

async function worker() {
  while (performance.now() < deadline) {
    const started = performance.now()
    try {
      const res = await pool.request({path: target.pathname + target.search, method: 'GET', headers})
      await res.body.dump()
      if (res.statusCode !== 200) errors++
    } catch {
      errors++
    }
    latencies.push(performance.now() - started)
  }
}

const started = performance.now()
await Promise.all(Array.from({length: Number(connections)}, worker))
const elapsed = (performance.now() - started) / 1000
await pool.close()
latencies.sort((a, b) => a - b)
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]
process.stdout.write(
  `${JSON.stringify({requests: latencies.length, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors})}\n`,
)
