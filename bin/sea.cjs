'use strict'
// The entry of amctl's single executable (bin/release.js builds it with Node's single executable
// applications). The npm package, laid out as `npm install -g` lays it out (package.json, the
// oclif manifest, bin/, dist/ and node_modules/@napi-rs/keyring with its native module), rides in
// the executable as assets. The first run of a release writes them to the user's cache directory,
// into a directory named by their digest; every run then starts the package's own entry from
// there, as a Node that installed the package would: the same files, the same module resolution,
// and the keychain's native module dlopen()ed from a real file (dlopen cannot load from memory).
//
// In here `require` loads built-in modules only; files are loaded through module.createRequire.
// Outside a single executable (a test) it only exports cacheDir.

const sea = require('node:sea')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const {createRequire} = require('node:module')

const DAY = 24 * 60 * 60 * 1000
// an image not started for this long belongs to an amctl no longer used: the next new image removes it
const STALE = 30 * DAY

/** {name, version, digest, entry, files: [{path, mode}]}; each file is the asset `files/<path>` (read by main) */
let index

/**
 * The user's cache directory for amctl, as oclif's `config.cacheDir` finds it (and bin/launcher.cjs
 * cacheDir, which this repeats: nothing but built-in modules can be loaded before the image is
 * written; test/bin/sea.test.ts holds the two together on every platform): AMCTL_CACHE_DIR, else
 * ~/Library/Caches/amctl on macOS, else $XDG_CACHE_HOME/amctl, %LOCALAPPDATA%\amctl on Windows,
 * ~/.cache/amctl.
 */
function cacheDir(env = process.env) {
  if (env.AMCTL_CACHE_DIR) return env.AMCTL_CACHE_DIR
  const home = env.HOME || env.USERPROFILE || os.homedir()
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'amctl')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || path.join(home, '.cache')
  return path.join(base, 'amctl')
}

/** Writes every file of the image under `dir` (which must not exist yet). */
function writeImage(dir) {
  for (const file of index.files) {
    const target = path.join(dir, ...file.path.split('/'))
    fs.mkdirSync(path.dirname(target), {recursive: true})
    fs.writeFileSync(target, new Uint8Array(sea.getRawAsset(`files/${file.path}`)), {mode: file.mode})
  }
}

/**
 * The image's directory in the cache, written there first if this release has not run before.
 * It is written beside its final place and renamed into it, so a directory that exists is
 * complete: two first runs at once both write, one rename wins, the other copy is removed.
 */
function cachedImage() {
  const images = path.join(cacheDir(), 'sea')
  const dir = path.join(images, `${index.version}-${index.digest.slice(0, 16)}`)
  const now = Date.now()
  try {
    // in use: its time keeps it from being removed as stale (refreshed at most once a day)
    if (now - fs.statSync(dir).mtimeMs > DAY) fs.utimesSync(dir, new Date(now), new Date(now))
    return dir
  } catch (error) {
    if (error.code !== 'ENOENT') throw error
  }
  fs.mkdirSync(images, {recursive: true, mode: 0o700})
  const staged = fs.mkdtempSync(`${dir}.tmp-`)
  try {
    writeImage(staged)
    fs.renameSync(staged, dir)
  } catch (error) {
    fs.rmSync(staged, {recursive: true, force: true})
    if (!fs.existsSync(dir)) throw error
  }
  for (const name of fs.readdirSync(images)) {
    const other = path.join(images, name)
    try {
      if (other !== dir && now - fs.statSync(other).mtimeMs > STALE) fs.rmSync(other, {recursive: true, force: true})
    } catch {
      // another amctl removed it first
    }
  }
  return dir
}

/** Where the cache cannot be written (a read-only home): a private directory of this run only. */
function privateImage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amctl-sea-'))
  process.on('exit', () => fs.rmSync(dir, {recursive: true, force: true}))
  writeImage(path.join(dir, 'image'))
  return path.join(dir, 'image')
}

function main() {
  index = JSON.parse(sea.getAsset('index.json', 'utf8'))
  let dir
  try {
    dir = cachedImage()
  } catch {
    dir = privateImage()
  }
  // the package's own entry (package.json "bin"): required when CommonJS, else imported through
  // sea-launch.cjs (bin/release.js adds it to the image), whose import() is an ordinary module's
  const entry = path.join(dir, ...index.entry.split('/'))
  const load = createRequire(entry)
  if (entry.endsWith('.cjs')) load(entry)
  else load(path.join(dir, 'sea-launch.cjs'))(entry)
}

if (sea.isSea()) main()
else module.exports = {cacheDir}
