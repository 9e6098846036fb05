import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {helpSubjects, loadHelpSubjects} from '../../../src/base/help/subjects.js'
import {ROOT} from '../../helpers/cli.js'

describe('helpSubjects (what the build draws help for)', () => {
  it('commands and topics by their words, and the help topics', () => {
    const subjects = helpSubjects({
      commands: [{id: 'runs:list'}, {id: 'api'}] as never,
      topics: [{name: 'runs'}, {name: 'orgs:implementation-doc'}] as never,
    })
    expect(subjects).toEqual({
      commands: ['api', 'runs list'],
      topics: ['orgs implementation-doc', 'runs'],
      helpTopics: ['environment', 'exit-codes', 'formatting'],
    })
  })

  it("of amctl's own configuration: every command of the manifest, the topics of package.json and those commands imply", async () => {
    const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
    const subjects = await loadHelpSubjects({root: ROOT, pjson, userPlugins: false} as never)
    expect(subjects.commands).toEqual(
      Object.keys(manifest.commands)
        .map((id) => id.replaceAll(':', ' '))
        .sort(),
    )
    expect(subjects.topics).toEqual(expect.arrayContaining(Object.keys(pjson.oclif.topics).map((t: string) => t.replaceAll(':', ' '))))
    expect(subjects.topics).toContain('autocomplete')
  })
})
