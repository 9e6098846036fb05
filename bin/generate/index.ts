import {type CommandClass, type CommandFile, commandFiles, snapshotFile} from './commands.js'
import {contractFiles, generatedLine} from './contract.js'
import {devRoutesFile, stateTypesFile} from './dev.js'
import {schemaFiles} from './schemas.js'

export {commandFiles} from './commands.js'

/** Every command class, by id (bin/generate.js bundles them; the tests import src/ directly). */
export type LoadCommands = (files: readonly CommandFile[]) => Promise<{id: string; Cmd: CommandClass}[]>

/**
 * What the commands say to scripts: command-snapshot.json (flags, arguments, aliases, operations)
 * and schemas/<topic>-<verb>.json (each `--json` document).
 */
export async function commandContractFiles(root: string, load: LoadCommands): Promise<Map<string, string>> {
  const files = commandFiles(root)
  const snapshot = snapshotFile(await load(files), generatedLine('the commands in src/commands (bin/generate/commands.ts)'))
  const schemas = schemaFiles(
    root,
    files,
    (id) => generatedLine(`the type of \`amctl ${id.replaceAll(':', ' ')}\`'s run() (ts-json-schema-generator)`),
    (format) => generatedLine(`the type ${format.name} of ${format.module}.ts (ts-json-schema-generator)`),
  )
  return new Map([['command-snapshot.json', snapshot], ...schemas])
}

/** What the sources import, from the OpenAPI documents: written before the commands are loaded. */
export async function sourceFiles(root: string): Promise<Map<string, string>> {
  return new Map([...(await contractFiles(root)), devRoutesFile(root), await stateTypesFile()])
}
