#!/usr/bin/env node
// `npm run docs`: regenerates what is derived from the code and checked in, then the tests check
// it is fresh:
//   what `npm run generate` writes   (bin/generate.js: the route table, schemas/, command-snapshot.json)
//   oclif.manifest.json               the commands' flags and help (written by the build, bin/build.js)
//   docs/commands/                    a page per command and an index by topic (src/base/help/docs.ts)
//   help-topic sections               between <!-- help:NAME --> markers in README.md,
//                                     CONTRIBUTING.md and docs/*.md (src/base/help/topics.ts)
//   examples/ci/report.xml, summary.md and their copies in docs/ci-reference.md: the CI reports of an
//                                     example run against the dev server (bin/ci-example.js)
// all from the build (`npm run build` first, here: it makes oclif.manifest.json, which the pages
// are made from, and the CLI the examples run).
//
// node bin/docs.js --man DIR: the man pages instead, which only the npm package carries: amctl(1)
// and one per command in DIR/man/, and their list (package.json "man") as JSON on stdout.
// bin/release.js makes them at pack time; nothing of them is checked in.

import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const manAt = process.argv.indexOf('--man')
const manDir = manAt < 0 ? undefined : process.argv[manAt + 1]
const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})

if (manDir === undefined) {
  // first what is generated from the API's document and the commands (routes, schemas/, the snapshot)
  run(process.execPath, ['bin/generate.js'])
  run(process.execPath, ['bin/build.js'])
  run(process.execPath, ['bin/ci-example.js'])
}

// src/base/help/docs.ts is TypeScript: bundled on the fly, outside the CLI's bundle
const scratch = mkdtempSync(join(tmpdir(), 'amctl-docs-'))
try {
  const module = join(scratch, 'docs.mjs')
  await build({
    entryPoints: [join(root, 'src/base/help/docs.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: module,
    logLevel: 'warning',
    banner: {js: "import {createRequire} from 'node:module';const require = createRequire(import.meta.url);"},
  })
  const {generatedFiles, manFiles, withTopics} = await import(pathToFileURL(module).href)
  const manifestPath = join(root, 'oclif.manifest.json')
  if (!existsSync(manifestPath)) throw new Error('oclif.manifest.json is missing: run `npm run build` first')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  // the man pages' date: the commit's, so that the same checkout packs the same bytes
  const date =
    execFileSync('git', ['log', '-1', '--format=%cs'], {cwd: root, encoding: 'utf8'}).trim() || new Date().toISOString().slice(0, 10)
  const files = generatedFiles(manifest, pkg.oclif.topics, date)

  if (manDir !== undefined) {
    mkdirSync(join(manDir, 'man'), {recursive: true})
    for (const [path, content] of files) if (path.startsWith('man/')) writeFileSync(join(manDir, path), content)
    process.stdout.write(`${JSON.stringify(manFiles(manifest))}\n`)
  } else {
    // the generated directory holds only what is generated now (a removed command loses its page)
    const dir = join(root, 'docs', 'commands')
    mkdirSync(dir, {recursive: true})
    for (const name of readdirSync(dir)) if (name.endsWith('.md') && !files.has(`docs/commands/${name}`)) rmSync(join(dir, name))
    let pages = 0
    for (const [path, content] of files) {
      if (!path.startsWith('docs/commands/')) continue
      writeFileSync(join(root, path), content)
      pages++
    }
    const documents = [
      'README.md',
      'CONTRIBUTING.md',
      ...readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ]
    for (const path of documents) {
      const file = join(root, path)
      if (!existsSync(file)) continue
      const text = readFileSync(file, 'utf8')
      const updated = withTopics(text)
      if (updated !== text) writeFileSync(file, updated)
    }
    console.log(`wrote ${pages} files in docs/commands/ and the help-topic sections`)
  }
} finally {
  rmSync(scratch, {recursive: true, force: true})
}
