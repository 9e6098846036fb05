#!/usr/bin/env node
// `npm run generate`: writes what is derived from the OpenAPI documents and the commands, each
// file saying so in its first line and marked generated in .gitattributes (bin/generate/*.ts):
//   src/contract/openapi-types.ts, src/contract/routes.ts   from src/contract/openapi.json
//   src/devserver/dev-routes.ts                             from src/devserver/dev-openapi.json (the test hooks)
//   src/devserver/state-types.ts                            from src/devserver/state-schema.ts (the --data file's JSON Schema)
//   command-snapshot.json                                   every command's flags, arguments, aliases, operations
//   schemas/<topic>-<verb>.json                             each command's --json document, from its run() type
//   src/gate/reports/gate-result.schema.json                the `gate` member of a wait's --json, which `evals comment` checks
// `--check` writes nothing and exits 1 naming what is stale (the unit suite checks the same,
// test/generated.test.ts, and says which changes break scripts).

import {build} from 'esbuild'
import {mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')

// bin/generate/ and the commands are TypeScript: bundled on the fly, beside node_modules/ so that
// the packages left out of the bundle resolve
const scratch = mkdtempSync(join(root, 'node_modules', '.amctl-generate-'))
const bundle = async (name, options) => {
  const outfile = join(scratch, `${name}.mjs`)
  await build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
    banner: {js: "import {createRequire} from 'node:module';const require = createRequire(import.meta.url);"},
    ...options,
  })
  return import(pathToFileURL(outfile).href)
}
try {
  const generate = await bundle('generate', {entryPoints: [join(root, 'bin/generate/index.ts')]})
  // every command class, in one bundle (as bin/build.js finds them)
  const load = async (files) => {
    const imports = files.map(({file}, i) => `import C${i} from ${JSON.stringify(`./${relative(root, file)}`)}`)
    const entries = files.map(({id}, i) => `  {id: ${JSON.stringify(id)}, Cmd: C${i}},`)
    const contents = `${imports.join('\n')}\nexport const COMMANDS = [\n${entries.join('\n')}\n]\n`
    const {COMMANDS} = await bundle('commands', {stdin: {contents, resolveDir: root, loader: 'ts', sourcefile: 'commands.ts'}})
    return COMMANDS
  }
  const stale = []
  const write = (path, content) => {
    stale.push(path)
    if (check) return
    mkdirSync(dirname(join(root, path)), {recursive: true})
    if (content === undefined) rmSync(join(root, path))
    else writeFileSync(join(root, path), content)
  }
  const update = (files) => {
    for (const [path, content] of files) {
      let old
      try {
        old = readFileSync(join(root, path), 'utf8')
      } catch {
        old = undefined
      }
      if (old !== content) write(path, content)
    }
  }
  // what the sources import first (the route tables), then what is read from the commands
  const sources = await generate.sourceFiles(root)
  update(sources)
  const commands = await generate.commandContractFiles(root, load)
  update(commands)
  const files = new Map([...sources, ...commands])
  // schemas/ holds only what is generated now (a removed command loses its schema)
  for (const name of readdirSync(join(root, 'schemas'))) if (!files.has(`schemas/${name}`)) write(`schemas/${name}`, undefined)
  if (check && stale.length > 0) {
    console.error(`stale, run \`npm run generate\`: ${stale.join(', ')}`)
    process.exitCode = 1
  } else console.log(stale.length === 0 ? `${files.size} generated files, all fresh` : `wrote ${stale.join(', ')}`)
} finally {
  rmSync(scratch, {recursive: true, force: true})
}
