'use strict'
// The build-time half of amctl's start-up machinery: the esbuild plugins bin/build.js gives the
// bundle, each a piece with a name (`node bin/build.js --without NAME,…` leaves it out, and
// `node bench/ablate.mjs` measures what each buys: docs/performance.md). No run loads this folder;
// the run-time half is bin/launcher.cjs.
//
//   lazy.cjs      lazy stand-ins for built-ins and packages (lazy:<name>)
//   undici.cjs    undici by its parts, --liftoff-only, undici apart (slim-undici, liftoff, undici-apart)
//   patches.cjs   patches/<name>@<version>.patch applied to the bundled sources (patch:<name>)
//   help.cjs      every help drawn once, for dist/help/

const {existsSync, readFileSync} = require('node:fs')
const {dirname, join} = require('node:path')
const {LAZY_BUILTINS, LAZY_PACKAGES, lazyBuiltins, lazyPackages} = require('./lazy.cjs')
const {dependencyPatches, pieceOf, readPatches} = require('./patches.cjs')
const {slimUndici, undiciApart} = require('./undici.cjs')

/** esbuild options the bundle needs. */
const BUILD_OPTIONS = {
  // Node 20 loses the vm dynamic-import callback of functions restored from a code cache ("A
  // dynamic import callback was not specified"): esbuild turns every import() into require().
  // None of the bundle's import() loads an ES module: the jq engine, the keychain module and
  // oclif's loading of the bundle itself are CommonJS.
  supported: {'dynamic-import': false},
}

/**
 * oclif's help and autocomplete commands are amctl's own (src/commands/help.ts,
 * src/commands/autocomplete/), bundled rather than loaded as plugins: a plugin is a package.json
 * and a manifest read on every run (~6 ms), and its commands, loaded from node_modules, import a
 * second @oclif/core.
 */

/** The directory of an installed package (whatever its "exports" allow). */
function packageDir(name) {
  let dir = dirname(require.resolve(name))
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = dirname(dir)
    if (up === dir) throw new Error(`no package.json of ${name}`)
    dir = up
  }
  return dir
}

/**
 * The esbuild plugins of the pieces, for dist/amctl.cjs (`bundle` 'amctl') or dist/undici.cjs
 * ('undici'). `without`: names of pieces to leave out, for measuring what each buys
 * (bench/ablate.mjs): lazy:<built-in or package>, slim-undici, liftoff, patch:<name>,
 * patch:<name>/<file>, undici-apart (undici in the bundle, with its pieces, and no dist/undici.cjs).
 */
function plugins(without = new Set(), bundle = 'amctl') {
  const undiciHere = bundle === 'undici' || without.has('undici-apart')
  return [
    lazyBuiltins(without),
    ...(bundle === 'amctl' ? [lazyPackages(without)] : []),
    undiciHere ? slimUndici(without) : undiciApart,
    // (each patch where its package is bundled)
    dependencyPatches(without, (patch) => (patch.name === 'undici' ? undiciHere : bundle === 'amctl')),
  ]
}

/** Every name `plugins()` accepts in `without`. */
function pieceNames() {
  return [
    ...LAZY_BUILTINS.map((n) => `lazy:${n}`),
    ...Object.keys(LAZY_PACKAGES).map((n) => `lazy:${n}`),
    'slim-undici',
    'liftoff',
    'undici-apart',
    // a whole patch, and each of its files alone
    ...readPatches().flatMap((patch) => [pieceOf(patch), ...patch.files.map((c) => pieceOf(patch, c.file))]),
  ]
}

module.exports = {BUILD_OPTIONS, packageDir, plugins, pieceNames}
