import {Flags} from '@oclif/core'
import {setImplementationDoc} from '../../../api/orgs.js'
import {ApiCommand} from '../../../base/api-command.js'
import type {ImplementationDoc} from '../../../contract/types.js'
import {readJsonObject} from '../../../input/body.js'
import type {OperationId} from '../../../contract/routes.js'

export default class OrgsImplementationDocSet extends ApiCommand {
  static override summary = "Set the organization's implementation doc from a JSON file"
  static operations: OperationId[] = ['setImplementationDoc']
  static override description = 'Replaces the implementation doc with the JSON object read from FILE (or stdin for -).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --org acme --input implementation.json',
    `echo '{"stack":"node","notes":"checkout lives in acme/storefront"}' | <%= config.bin %> <%= command.id %> --org acme --input -`,
  ]

  static override flags = {
    input: Flags.string({description: 'JSON object file, or - for stdin', helpValue: 'FILE|-', required: true}),
  }

  async run(): Promise<ImplementationDoc> {
    const {flags} = await this.parse(OrgsImplementationDocSet)
    const doc = await readJsonObject(flags.input, this.io.stdin)
    const saved = await setImplementationDoc(await this.ctx.http(), await this.ctx.org(), doc)
    this.out.object(saved)
    return saved
  }
}
