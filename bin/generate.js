#!/usr/bin/env node
// `npm run generate`: writes what is derived from the OpenAPI documents and the commands, each
// file marked generated in its first line and in .gitattributes (bin/generate/*.ts says how):
//   src/contract/openapi-types.ts, src/contract/routes.ts     from src/contract/openapi.json
// `--check` writes nothing and exits 1 naming what is stale (the unit suite checks the same).

import {build} from 'esbuild'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')

// bin/generate/ is TypeScript: bundled on the fly, beside node_modules/ so that the packages it
// leaves out of the bundle resolve
const scratch = mkdtempSync(join(root, 'node_modules', '.amctl-generate-'))
try {
  const module = join(scratch, 'generate.mjs')
  await build({
    entryPoints: [join(root, 'bin/generate/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: module,
    logLevel: 'warning',
  })
  const {generatedFiles} = await import(pathToFileURL(module).href)
  const files = await generatedFiles(root)
  const stale = []
  for (const [path, content] of files) {
    let old
    try {
      old = readFileSync(join(root, path), 'utf8')
    } catch {
      old = undefined
    }
    if (old === content) continue
    stale.push(path)
    if (check) continue
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), content)
  }
  if (check && stale.length > 0) {
    console.error(`stale, run \`npm run generate\`: ${stale.join(', ')}`)
    process.exitCode = 1
  } else console.log(stale.length === 0 ? `${files.size} generated files, all fresh` : `wrote ${stale.join(', ')}`)
} finally {
  rmSync(scratch, {recursive: true, force: true})
}
