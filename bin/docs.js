#!/usr/bin/env node
// `npm run docs`: regenerates what is derived from the code, then the tests check it is fresh:
//   oclif.manifest.json            the commands' flags and help (oclif manifest)
//   README.md, command reference   between <!-- commands --> markers (oclif readme)
//   README.md, help topics         between <!-- help:NAME --> markers (src/base/help/topics.ts)
//   man/amctl.1                    the man page (src/base/help/man.ts through marked-man)
// and dist/ again, whose help is drawn from the manifest.

import {build} from 'esbuild'
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})

run(process.execPath, ['bin/build.js'])
run('npx', ['oclif', 'manifest'])
run('npx', ['oclif', 'readme', '--no-aliases', '--no-source-links'])
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
  const {manPage, readmeWithTopics} = await import(pathToFileURL(module).href)
  const readmePath = join(root, 'README.md')
  writeFileSync(readmePath, readmeWithTopics(readFileSync(readmePath, 'utf8')))
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
  const date =
    execFileSync('git', ['log', '-1', '--format=%cs'], {cwd: root, encoding: 'utf8'}).trim() || new Date().toISOString().slice(0, 10)
  mkdirSync(join(root, 'man'), {recursive: true})
  writeFileSync(join(root, 'man', 'amctl.1'), manPage(manifest, date))
  console.log('wrote README.md help topics and man/amctl.1')
} finally {
  rmSync(scratch, {recursive: true, force: true})
}
