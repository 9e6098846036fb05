import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {commands} from '@oclif/plugin-help'
import {expect, it} from 'vitest'
import {loadHelpSubjects} from '../../src/base/help/subjects.js'
import Help from '../../src/commands/help.js'
import {ROOT} from '../helpers/cli.js'

// `amctl help` is oclif's help command, drawn through amctl's help class (test/base/help/, and
// from the built CLI test/e2e/help-topics.test.ts): what is amctl's own here is what it declares.

it("is oclif's help command; it sends nothing, and each example asks for a subject amctl has", async () => {
  expect(Object.getPrototypeOf(Help)).toBe(commands.help)
  expect(Help.operations).toEqual([])
  const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const subjects = await loadHelpSubjects({root: ROOT, pjson, userPlugins: false} as never)
  const known = [...subjects.commands, ...subjects.topics, ...subjects.helpTopics]
  const asked = Help.examples.map((example) => String(example).replace('<%= config.bin %> <%= command.id %> ', ''))
  expect(asked).toEqual(['runs', 'runs list', 'exit-codes'])
  for (const subject of asked) expect(known).toContain(subject)
})
