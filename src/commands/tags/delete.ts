import {Args} from '@oclif/core'
import {deleteTag} from '../../api/deletes.js'
import {ApiCommand} from '../../base/api-command.js'
import {yesFlag} from '../../base/flags.js'
import type {JsonObject} from '../../contract/types.js'
import {requireId} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class TagsDelete extends ApiCommand {
  static override summary = 'Delete a tag'
  static operations: OperationId[] = ['deleteTag']
  static override description = 'Asks for confirmation on a terminal; elsewhere --yes is required.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> tag_acme_flaky --org acme',
    '<%= config.bin %> <%= command.id %> tag_acme_nightly --org acme --yes',
  ]

  static override args = {tag_id: Args.string({description: 'ID of the tag', required: true})}
  static override flags = {yes: yesFlag}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(TagsDelete)
    const tagId = requireId('TAG_ID', args.tag_id)
    await this.confirmDelete(`tag ${tagId}`, flags.yes)
    const result = await deleteTag(await this.ctx.http(), await this.ctx.org(), tagId)
    this.out.notice(`Deleted tag ${tagId}`)
    this.out.object(result)
    return result
  }
}
