'use strict'
// Build time: the patches of dependencies. Each is patches/<name>@<version>.patch (a scoped name
// is a folder: patches/@oclif/core@4.14.0.patch), in the format patch-package writes (a git diff
// whose paths are a/node_modules/<name>/<file>), made by `node bin/patch.js`. The build applies
// it to the source of every bundled copy of <name> at exactly <version>, nested ones included,
// as esbuild reads it (node_modules is never changed).
//
// A patch whose version no bundled copy has (the package was bumped) is left out: the build
// succeeds without it and says so on stderr, naming the patch; test/bin/build/patches.test.ts
// fails naming it too, and the bench shows what it cost. docs/performance.md ("Bumping oclif or
// undici") says what to do then. A patch that does not apply to the very version it names (a
// damaged node_modules) fails the build.
//
// Each patch undoes work a dependency does at load time that amctl never needs: what each one
// buys is measured by `node bench/ablate.mjs patch:<name>` (or patch:<name>/<file> for one file);
// edits measured under 1 ms are not kept.

const {existsSync, readdirSync, readFileSync} = require('node:fs')
const {createHash} = require('node:crypto')
const {join, relative, sep} = require('node:path')
const {applyPatch, createTwoFilesPatch, parsePatch} = require('diff')

const ROOT = join(__dirname, '..', '..')
const PATCHES = join(ROOT, 'patches')

/**
 * Every patch under `dir`: {name, version, path (as the build names it), file (its absolute path),
 * files: [{file (inside the package), patch (jsdiff's structured patch)}]}, sorted by path.
 */
function readPatches(dir = PATCHES) {
  if (!existsSync(dir)) return []
  const found = []
  const walk = (at) => {
    for (const entry of readdirSync(at, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory()) walk(join(at, entry.name))
      else if (entry.name.endsWith('.patch')) found.push(readPatch(join(at, entry.name), dir))
    }
  }
  walk(dir)
  return found
}

function readPatch(file, dir) {
  const path = relative(ROOT, file).split(sep).join('/')
  const id = relative(dir, file).split(sep).join('/').slice(0, -'.patch'.length)
  const at = id.lastIndexOf('@')
  if (at <= 0) throw new Error(`${path}: not named <name>@<version>.patch`)
  const name = id.slice(0, at)
  const version = id.slice(at + 1)
  const prefix = `node_modules/${name}/`
  const files = parsePatch(readFileSync(file, 'utf8')).map((patch) => {
    const [a, b] = [patch.oldFileName, patch.newFileName].map((f) => String(f).replace(/^[ab]\//, ''))
    if (a !== b || !a.startsWith(prefix)) throw new Error(`${path}: ${patch.oldFileName} is not a file of ${name} changed in place`)
    return {file: a.slice(prefix.length), patch}
  })
  if (files.length === 0) throw new Error(`${path}: no change in it`)
  return {name, version, path, file, files}
}

/** The name of a patch for bench/ablate.mjs and `bin/build.js --without`: patch:<name>, patch:<name>/<file>. */
const pieceOf = (patch, file) => (file === undefined ? `patch:${patch.name}` : `patch:${patch.name}/${file}`)

/**
 * The esbuild plugin that applies `patches` (those `here` selects for this bundle) to every
 * bundled copy of their package at their version; `without` leaves out a patch or one file of one.
 * `warn` is told of each patch left out because no bundled copy has its version.
 */
function dependencyPatches(without, here, {patches = readPatches(), warn = (text) => console.warn(`warning: ${text}`)} = {}) {
  const wanted = patches.filter((p) => here(p) && !without.has(pieceOf(p)))
  // "<name>/<file>" → the patch and the file's change
  const targets = new Map()
  for (const patch of wanted) {
    for (const change of patch.files)
      if (!without.has(pieceOf(patch, change.file))) targets.set(`${patch.name}/${change.file}`, {patch, change})
  }
  return {
    name: 'dependency-patches',
    setup(b) {
      if (targets.size === 0) return
      const applied = new Set()
      // the versions of each patched package that were bundled
      const seen = new Map()
      const escaped = [...targets.keys()].map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]'))
      b.onLoad({filter: new RegExp(`[\\\\/]node_modules[\\\\/](${escaped.join('|')})$`)}, (args) => {
        const path = args.path.split(sep).join('/')
        const key = [...targets.keys()].find((k) => path.endsWith(`/node_modules/${k}`))
        const {patch, change} = targets.get(key)
        const dir = args.path.slice(0, -change.file.length)
        const {version} = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
        if (!seen.has(patch.name)) seen.set(patch.name, new Set())
        seen.get(patch.name).add(version)
        if (version !== patch.version) return undefined
        const patched = applyPatch(readFileSync(args.path, 'utf8'), change.patch)
        if (patched === false) throw new Error(`${patch.path} does not apply to ${args.path}, which is ${patch.name}@${version}`)
        applied.add(key)
        return {contents: patched, loader: 'js'}
      })
      b.onEnd((result) => {
        if (result.errors.length > 0) return
        for (const patch of wanted) {
          const missing = patch.files.filter((c) => targets.has(`${patch.name}/${c.file}`) && !applied.has(`${patch.name}/${c.file}`))
          if (missing.length === 0) continue
          const versions = [...(seen.get(patch.name) ?? [])].filter((v) => v !== patch.version)
          const found =
            versions.length > 0 ? `the bundle has ${patch.name} ${versions.join(', ')}` : `no ${patch.name}@${patch.version} is bundled`
          warn(`${patch.path} was not applied (${found}): built without it; see docs/performance.md, "Bumping oclif or undici"`)
        }
      })
    },
  }
}

/** A file's git blob id, as the index line of a git diff names it. */
const blob = (text) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest('hex')
    .slice(0, 7)

/**
 * The text of patches/<name>@<version>.patch for `changes` ([{file, before, after}], files of
 * the package), in patch-package's format: a git diff of a/node_modules/<name>/<file>.
 */
function patchText(name, changes) {
  return changes
    .filter((c) => c.before !== c.after)
    .sort((a, b) => (a.file < b.file ? -1 : 1))
    .map(({file, before, after}) => {
      const path = `node_modules/${name}/${file}`
      const diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {context: 3})
      return `diff --git a/${path} b/${path}\nindex ${blob(before)}..${blob(after)} 100644\n${diff.slice(diff.indexOf('--- '))}`
    })
    .join('')
}

/** Where patches/ keeps the patch of name@version. */
const patchPath = (name, version, dir = PATCHES) => join(dir, ...`${name}@${version}.patch`.split('/'))

module.exports = {PATCHES, readPatches, dependencyPatches, pieceOf, patchText, patchPath}
