// What the benches share: the clean environment, alternating medians, the local control plane
// with amctl logged in to it (bench/run.mjs, bench/ablate.mjs), and the TypeScript of src/ bundled
// for the benches that run the gate's code in process (bench/sequential.mjs, bench/judge.mjs).

import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'

export const node = process.execPath

/**
 * What `lines` (TypeScript export statements relative to the repository's root) export from src/,
 * bundled by esbuild (loaded only here) into OUT/NAME-src.mjs: returns that file's path.
 */
export async function bundleSource(root, outDir, name, lines) {
  const {build} = await import('esbuild')
  mkdirSync(outDir, {recursive: true})
  const outfile = join(outDir, `${name}-src.mjs`)
  await build({
    stdin: {contents: lines.join('\n'), resolveDir: root, sourcefile: `bench-${name}.ts`, loader: 'ts'},
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'warning',
  })
  return outfile
}
const TIME = '/usr/bin/time'
export const hasTime = existsSync(TIME)

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * A bench world: a temp HOME that every measured process gets as its whole environment with
 * PATH (as `env -i PATH=$PATH HOME=$tmp` would), and helpers that run commands in it.
 */
export function world() {
  const work = mkdtempSync(join(tmpdir(), 'amctl-bench-'))
  const home = join(work, 'home')
  mkdirSync(home)
  const clean = {PATH: process.env.PATH, HOME: home}

  /**
   * Runs argv once, stdout a pipe (as `x=$(amctl …)` and `amctl … | jq` have it; what comes is
   * dropped): wall ms, and peak RSS in MB when asked.
   */
  function once(argv, {rss = false, okStatus = [0], env = {}} = {}) {
    const [cmd, rest] = rss && hasTime ? [TIME, ['-f', '%M', ...argv]] : [argv[0], argv.slice(1)]
    const started = process.hrtime.bigint()
    const r = spawnSync(cmd, rest, {
      env: {...clean, ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    })
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    const stderr = r.stderr.toString('utf8')
    if (!okStatus.includes(r.status)) throw new Error(`${argv.join(' ')} exited ${r.status}: ${stderr.slice(-500)}`)
    const mb = rss && hasTime ? Number(stderr.trim().split('\n').at(-1)) / 1024 : Number.NaN
    return {ms, mb}
  }

  /**
   * Alternates A and B `reps` times each after a warm-up: medians of wall time and peak RSS, and
   * the spread of the ratio (its lowest and highest quartile, pair by pair).
   */
  function compare(a, b, {reps, warmup, rss = false, env = {}, bEnv = {}}) {
    for (let i = 0; i < warmup; i++) {
      once(a, {env})
      once(b, {env: {...env, ...bEnv}})
    }
    const A = []
    const B = []
    for (let i = 0; i < reps; i++) {
      A.push(once(a, {rss, env}))
      B.push(once(b, {rss, env: {...env, ...bEnv}}))
    }
    const ms = (xs) => median(xs.map((x) => x.ms))
    const mb = (xs) => median(xs.map((x) => x.mb))
    const ratios = A.map((x, i) => x.ms / B[i].ms).sort((p, q) => p - q)
    const quartile = (q) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]
    return {a: ms(A), b: ms(B), aRss: mb(A), bRss: mb(B), spread: [quartile(0.25), quartile(0.75)]}
  }

  return {work, home, clean, once, compare, remove: () => rmSync(work, {recursive: true, force: true})}
}

/**
 * `amctl dev server` (of the CLI at `bin`) in its own process, seeded with `runs` ({org: count}),
 * and amctl logged in to it in `clean`'s HOME as a user would be: the token stored (in
 * credentials.json: a clean environment has no keychain), base-url and org in config.json.
 */
export async function devServer(bin, clean, runs) {
  const server = spawn(node, [bin, 'dev', 'server', '--port', '0', '--json'], {
    env: {...clean, HOME: join(clean.HOME, '..', 'server')},
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const {baseUrl} = JSON.parse(await new Promise((resolve) => createInterface({input: server.stdout}).once('line', resolve)))
  /** One JSON request, on a connection of its own (a kept-alive one may be closed under it). */
  const call = (method, path, {body, token} = {}) =>
    new Promise((resolve, reject) => {
      const headers = {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})}
      const req = httpRequest(baseUrl + path, {method, headers, agent: false}, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          text += chunk
        })
        res.on('end', () => (res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${res.statusCode}`))))
      })
      req.on('error', reject)
      req.end(body && JSON.stringify(body))
    })
  const hook = (method, path, body) => call(method, path, {body})
  const stop = async () => {
    server.kill('SIGINT')
    await new Promise((resolve) => server.once('exit', resolve))
  }
  try {
    for (const [org, count] of Object.entries(runs)) {
      const {runCount} = await hook('GET', `/_dev/orgs/${org}`)
      if (count > runCount) await hook('POST', `/_dev/orgs/${org}/runs`, {count: count - runCount})
    }
    const {token} = await hook('POST', '/_dev/tokens', {email: 'ada@example.com'})
    const login = spawnSync(node, [bin, 'auth', 'login', '--base-url', baseUrl, '--with-token'], {
      env: clean,
      input: token,
      encoding: 'utf8',
    })
    if (login.status !== 0) throw new Error(`auth login failed: ${login.stderr}`)
    const org = spawnSync(node, [bin, 'config', 'set', 'org', 'acme'], {env: clean, encoding: 'utf8'})
    if (org.status !== 0) throw new Error(`config set org failed: ${org.stderr}`)
    return {baseUrl, token, call, hook, stop}
  } catch (error) {
    await stop()
    throw error
  }
}
