#!/usr/bin/env node
// Makes and ports the patches of dependencies the build applies (patches/<name>@<version>.patch,
// bin/build/patches.cjs). docs/performance.md, "Bumping oclif or undici", has the steps.
//
//   node bin/patch.js port NAME[@VERSION]   NAME was bumped: its patch of another version, applied
//                                           to the installed files of VERSION (default: the copy at
//                                           the top of node_modules), becomes patches/<name>@<version>.patch,
//                                           the old one removed; names every file whose change no
//                                           longer applies, and writes nothing then
//   node bin/patch.js make NAME[@VERSION]   after editing node_modules/NAME by hand (patch-package's
//                                           way): its differences from the package as published
//                                           (npm pack NAME@VERSION) become patches/<name>@<version>.patch
//
// Either way node_modules is left as it is (`npm ci` undoes hand edits); the build applies the
// patch to what it bundles.

import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join, relative, resolve, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {applyPatch} from 'diff'

const require = createRequire(import.meta.url)
const {patchPath, patchText, readPatches} = require('./build/patches.cjs')

class PatchError extends Error {}

/** Every copy of `name` under root's node_modules (nested ones too): [{dir, version}]. */
export function copiesOf(root, name) {
  const found = []
  const walk = (modules) => {
    if (!existsSync(modules)) return
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue
      const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => join(modules, entry, n)) : [join(modules, entry)]
      for (const dir of dirs) {
        if (!existsSync(join(dir, 'package.json'))) continue
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
        if (pkg.name === name) found.push({dir, version: pkg.version})
        walk(join(dir, 'node_modules'))
      }
    }
  }
  walk(join(root, 'node_modules'))
  return found
}

/** The copy of `spec` (NAME or NAME@VERSION) a patch is made for. */
function target(root, spec) {
  const at = spec.lastIndexOf('@')
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined]
  const copies = copiesOf(root, name)
  const top = join(root, 'node_modules', ...name.split('/'))
  const copy = version === undefined ? copies.find((c) => c.dir === top) : copies.find((c) => c.version === version)
  if (!copy) throw new PatchError(`no ${spec} in node_modules (installed: ${copies.map((c) => c.version).join(', ') || 'none'})`)
  return {name, ...copy}
}

/**
 * `port`: the patch of `spec`'s package for another version, applied to this version's files,
 * written as this version's patch; the old one removed. Returns the new patch's path.
 */
export function portPatch(root, spec, dir = join(root, 'patches')) {
  const {name, version, dir: pkgDir} = target(root, spec)
  const old = readPatches(dir).filter((p) => p.name === name)
  if (old.length === 0) throw new PatchError(`patches/ has no patch of ${name}`)
  if (old.some((p) => p.version === version)) throw new PatchError(`${name}@${version} has its patch already`)
  if (old.length > 1) throw new PatchError(`patches/ has ${old.length} patches of ${name}: keep the one to port`)
  const [from] = old
  const failed = []
  const changes = from.files.map(({file, patch}) => {
    const path = join(pkgDir, file)
    const before = existsSync(path) ? readFileSync(path, 'utf8') : undefined
    const after = before === undefined ? false : applyPatch(before, patch)
    if (after === false) failed.push(file)
    return {file, before, after}
  })
  if (failed.length > 0) {
    throw new PatchError(
      `${from.path} does not apply to ${name}@${version} in ${failed.join(', ')}: edit node_modules/${name} as the patch did, then \`node bin/patch.js make ${name}@${version}\` (or drop what no longer pays)`,
    )
  }
  const out = patchPath(name, version, dir)
  mkdirSync(dirname(out), {recursive: true})
  writeFileSync(out, patchText(name, changes))
  rmSync(from.file)
  return out
}

/** Every file under `dir`, relative to it, with '/' separators. */
function filesUnder(dir, base = dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : filesUnder(path, base)
    return [relative(base, path).split(sep).join('/')]
  })
}

/** `make`: the differences of node_modules' copy from the package as published, as its patch. */
export function makePatch(root, spec, dir = join(root, 'patches')) {
  const {name, version, dir: pkgDir} = target(root, spec)
  const work = mkdtempSync(join(tmpdir(), 'amctl-patch-'))
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work, `${name}@${version}`], {cwd: work, encoding: 'utf8'}),
    )
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work])
    const published = join(work, 'package')
    const changes = filesUnder(published)
      // (package.json is npm's to rewrite at install, as patch-package leaves it out)
      .filter((file) => file !== 'package.json' && existsSync(join(pkgDir, file)))
      .map((file) => ({file, before: readFileSync(join(published, file), 'utf8'), after: readFileSync(join(pkgDir, file), 'utf8')}))
      .filter((c) => c.before !== c.after)
    if (changes.length === 0) throw new PatchError(`node_modules' ${name}@${version} is as published: nothing to patch`)
    const out = patchPath(name, version, dir)
    mkdirSync(dirname(out), {recursive: true})
    writeFileSync(out, patchText(name, changes))
    for (const other of readPatches(dir)) if (other.name === name && other.version !== version) rmSync(other.file)
    return out
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  const [verb, spec] = process.argv.slice(2)
  try {
    if (spec === undefined || (verb !== 'port' && verb !== 'make'))
      throw new PatchError('usage: node bin/patch.js port|make NAME[@VERSION]')
    const out = verb === 'port' ? portPatch(root, spec) : makePatch(root, spec)
    console.log(`wrote ${relative(process.cwd(), out)}`)
  } catch (error) {
    process.stderr.write(`error: ${error instanceof PatchError ? error.message : error.stack}\n`)
    process.exitCode = 1
  }
}
