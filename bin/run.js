#!/usr/bin/env node
// amctl entry point: as little as possible before oclif takes over.

const argv = process.argv.slice(2)

// A reader of stdout that goes away (`amctl runs list --all | head -1`) ends amctl at once,
// quietly, with exit 0, before any further request (contract 1.4).
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0)
  throw error
})

// `--version` is answered without loading oclif (the most frequent call from scripts).
if (argv.length === 1 && argv[0] === '--version') {
  const {readFileSync} = await import('node:fs')
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  // the first line stays what scripts parse; the commit and its date follow when the build knows them
  let built = ''
  try {
    const {commit, date} = JSON.parse(readFileSync(new URL('../dist/build-info.json', import.meta.url), 'utf8'))
    built = `commit ${commit}, ${date}\n`
  } catch {
    // not built from a git checkout
  }
  process.stdout.write(`amctl/${version} ${process.platform}-${process.arch} node-${process.version}\n${built}`)
} else {
  // Ctrl-C: exit 130 without a stack trace, unless a command (dev server) handles it itself.
  process.on('SIGINT', () => {
    if (process.listenerCount('SIGINT') === 1) {
      process.stderr.write('\n')
      process.exit(130)
    }
  })
  // npm checks "engines" at install; oclif's own check would load semver on every run
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  // undici parses HTTP with WebAssembly; V8 would optimize it again in the background and Node
  // waits for that before exiting (~100 ms per command). Baseline wasm code is plenty here.
  const {setFlagsFromString} = await import('node:v8')
  setFlagsFromString('--liftoff-only')

  // the bundle's dynamic imports go through here (see bin/build.js)
  globalThis.__amctlImport = (specifier) => import(specifier)
  const bundle = await loadBundle(new URL('../dist/amctl.cjs', import.meta.url))
  const cli = bundle.exports
  try {
    await cli.run(argv, import.meta.url)
  } catch (error) {
    process.exitCode = cli.reportFailure(error, argv)
  } finally {
    await cli.flush()
    bundle.saveCodeCache()
  }
}

/**
 * Loads dist/amctl.cjs (the whole CLI, see bin/build.js) with the V8 code cache beside it, so
 * the bundle is not parsed and compiled again on every run. V8 checks the cache against the
 * source and the V8 version and rejects a stale one; then the bundle compiles as usual and a
 * fresh cache is written (atomically; silently skipped where dist/ is read-only). The module is
 * registered in require's cache, so oclif's own require() of the bundle gets this instance.
 */
async function loadBundle(url) {
  const [{readFileSync, renameSync, writeFileSync}, {Module, createRequire}, vm, {dirname}, {fileURLToPath}] = await Promise.all([
    import('node:fs'),
    import('node:module'),
    import('node:vm'),
    import('node:path'),
    import('node:url'),
  ])
  const file = fileURLToPath(url)
  const cacheFile = `${file}.cache`
  let cached
  try {
    cached = readFileSync(cacheFile)
  } catch {
    // no cache yet
  }
  // esbuild writes ASCII only (non-ASCII is escaped): latin1 needs no UTF-8 decoding
  const script = new vm.Script(Module.wrap(readFileSync(file, 'latin1')), {
    filename: file,
    cachedData: cached,
  })
  const module = new Module(file, undefined)
  module.filename = file
  module.paths = Module._nodeModulePaths(dirname(file))
  Module._cache[file] = module
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  module.loaded = true
  const stale = cached === undefined || script.cachedDataRejected === true
  return {
    exports: module.exports,
    saveCodeCache() {
      if (!stale && process.env.AMCTL_CODE_CACHE !== 'write') return
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, cacheFile)
      } catch {
        // a read-only install: run without the cache
      }
    },
  }
}
