'use strict'
// The keychain's calls, in a process of their own (src/core/auth/keychain.ts starts it). On Linux
// @napi-rs/keyring connects to the D-Bus session bus, and makes the handshake, synchronously in
// the constructor of an entry: a bus that accepts the connection and never answers held amctl's
// main thread for ever, deaf to its 3 s limit and to Ctrl-C. A worker thread would not do either:
// the process's exit waits for a thread stuck in native code. A process can be killed wherever it
// is, so amctl keeps its limit and falls back to the file, as documented.
// CommonJS in plain JavaScript, not TypeScript: it is run from this file, beside the sources and,
// copied by bin/build.js, in dist/ (the single executable runs it as `amctl __keychain`).
//
// Protocol, one JSON object a line: first out {ready: true}, or {ready: false, error} when the
// module cannot be loaded; then for each request in {id, op: 'get'|'set'|'delete', service,
// account, password?}, one answer out {id, value} or {id, error}. It ends with its stdin.

/**
 * The three keytar calls as `@napi-rs/keyring/keytar` makes them (an AsyncEntry per call), but
 * on Linux pinned to the Secret Service: keytar's automatic choice falls back, silently, to the
 * kernel's keyring, which forgets the token at the next reboot; a pinned entry refuses instead,
 * and amctl falls back to the file (contract 1.3).
 */
function keytar(AsyncEntry, platform) {
  const options = platform === 'linux' ? {linux: {store: 'secret-service'}} : undefined
  const entry = (service, account) => new AsyncEntry(service, account, options)
  return {
    getPassword: async (service, account) => (await entry(service, account).getPassword()) ?? null,
    setPassword: async (service, account, password) => {
      await entry(service, account).setPassword(password)
    },
    deletePassword: async (service, account) => entry(service, account).deletePassword(),
  }
}

/** Answers requests on stdin; `module` is the keychain module to load (the tests give a stand-in). */
function serve(module = '@napi-rs/keyring') {
  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`)
  let k
  try {
    k = keytar(require(module).AsyncEntry, process.platform)
  } catch (error) {
    send({ready: false, error: String(error?.message ?? error).split('\n')[0]})
    return
  }
  send({ready: true})
  let buffered = ''
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', (chunk) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      const {id, op, service, account, password} = JSON.parse(line)
      const call =
        op === 'get'
          ? k.getPassword(service, account)
          : op === 'set'
            ? k.setPassword(service, account, password)
            : k.deletePassword(service, account)
      Promise.resolve()
        .then(() => call)
        .then(
          (value) => send({id, value: value ?? null}),
          (error) => send({id, error: String(error?.message ?? error).split('\n')[0]}),
        )
    }
  })
}

module.exports = {keytar, serve}
if (require.main === module) serve(process.argv[2])
