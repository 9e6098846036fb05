import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {deleteTag} from '../../api/deletes.js'
import type {JsonObject} from '../../api/types.js'
import {requireId} from '../../core/input.js'
import {yesFlag} from '../../flags.js'

export default class TagsDelete extends ApiCommand {
  static override summary = 'Delete a tag'
  static override description = 'Sends DELETE /api/v1/orgs/{org}/tags/{tagId}. Asks for confirmation on a terminal; elsewhere --yes is required.'
  static override examples = ['<%= config.bin %> <%= command.id %> tag_flaky', '<%= config.bin %> <%= command.id %> tag_flaky --yes --org acme']

  static override args = {tag_id: Args.string({description: 'ID of the tag', required: true})}
  static override flags = {yes: yesFlag}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(TagsDelete)
    const tagId = requireId('TAG_ID', args.tag_id)
    await this.confirmDelete(`tag ${tagId}`, flags.yes)
    const result = await deleteTag(await this.client(flags), await this.org(flags), tagId)
    this.notice(`Deleted tag ${tagId}`)
    this.renderObject(result)
    return result
  }
}
