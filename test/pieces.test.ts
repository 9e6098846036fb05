import {pathToFileURL} from 'node:url'
import {expect, it} from 'vitest'
import {commandFiles} from '../bin/generate/commands.js'
import {ROOT} from './helpers/cli.js'
import {type CommandPieces, missingPieces} from './helpers/pieces.js'

// Every command has the pieces CONTRIBUTING's "Adding an endpoint" lists: a unit test, an
// end-to-end test, and its declared operations. A command missing one fails here, by name, with
// what to add (test/helpers/pieces.ts).

it('every command has a unit test, an end-to-end test and static operations', async () => {
  const commands: CommandPieces[] = await Promise.all(
    commandFiles(ROOT).map(async ({id, file}) => ({id, file, Cmd: (await import(pathToFileURL(file).href)).default})),
  )
  expect(commands.length).toBeGreaterThan(30)
  const missing = missingPieces(ROOT, commands)
  if (missing.length > 0) expect.fail(`${missing.length} pieces missing:\n${missing.join('\n')}`)
})
