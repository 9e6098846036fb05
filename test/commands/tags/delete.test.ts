import {describe, expect, it} from 'vitest'
import TagsDelete from '../../../src/commands/tags/delete.js'
import {runCommand} from '../../helpers/cli.js'
import {deleteCases} from '../../helpers/delete-cases.js'
import {useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi({'DELETE /orgs/acme/tags/tag_1': {deleted: true, id: 'tag_1'}}, {me: false})

describe('tags delete', () => {
  deleteCases(api, TagsDelete, 'tag_1', 'tag', '/api/v1/orgs/acme/tags/tag_1')

  it('returns what the server answered; the renderer gets the notice, then the object', async () => {
    const r = await runCommand(TagsDelete, ['tag_1', '--yes', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({deleted: true, id: 'tag_1'})
    expect(r.rendered).toEqual([
      {method: 'notice', text: 'Deleted tag tag_1'},
      {method: 'object', value: {deleted: true, id: 'tag_1'}},
    ])
  })
})
