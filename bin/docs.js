#!/usr/bin/env node
// `npm run docs`: regenerates what is derived from the code, then the tests check it is fresh:
//   what `npm run generate` writes   (bin/generate.js: the route table, schemas/, command-snapshot.json)
//   oclif.manifest.json               the commands' flags and help (oclif manifest)
//   docs/commands/                    a page per command and an index by topic (src/base/help/docs.ts)
//   man/amctl.1, man/amctl-*.1        the man pages: the overview and one per command (the same
//                                     model through marked-man); package.json "man" lists them
//   help-topic sections               between <!-- help:NAME --> markers in README.md,
//                                     CONTRIBUTING.md and docs/*.md (src/base/help/topics.ts)
//   examples/ci/report.xml, summary.md and their copies in docs/ci.md: the CI reports of an
//                                     example run against the dev server (bin/ci-example.js)
// and dist/ again, whose help is drawn from the manifest.

import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})

// first what is generated from the API's document and the commands (routes, schemas/, the snapshot)
run(process.execPath, ['bin/generate.js'])
run(process.execPath, ['bin/build.js'])
run('npx', ['oclif', 'manifest'])
run(process.execPath, ['bin/ci-example.js'])
// again: the help drawn at build time (dist/help/) is drawn from the manifest just written
run(process.execPath, ['bin/build.js'])

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
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
  const pkgPath = join(root, 'package.json')
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'))
  const date =
    execFileSync('git', ['log', '-1', '--format=%cs'], {cwd: root, encoding: 'utf8'}).trim() || new Date().toISOString().slice(0, 10)

  // the generated directories hold only what is generated now (a removed command loses its pages)
  const files = generatedFiles(manifest, pkg.oclif.topics, date)
  for (const [dir, generated] of [
    ['docs/commands', (name) => name.endsWith('.md')],
    ['man', (name) => name.endsWith('.1')],
  ]) {
    mkdirSync(join(root, dir), {recursive: true})
    for (const name of readdirSync(join(root, dir))) if (generated(name) && !files.has(`${dir}/${name}`)) rmSync(join(root, dir, name))
  }
  for (const [path, content] of files) writeFileSync(join(root, path), content)

  pkg.man = manFiles(manifest)
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`)

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
  console.log(`wrote ${files.size} files in docs/commands/ and man/, package.json "man", and the help-topic sections`)
} finally {
  rmSync(scratch, {recursive: true, force: true})
}
