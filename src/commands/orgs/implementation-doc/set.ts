import {Flags} from '@oclif/core'
import {ApiCommand} from '../../../api-command.js'
import {setImplementationDoc} from '../../../api/orgs.js'
import type {JsonObject} from '../../../api/types.js'
import {parseJsonObject, readSource} from '../../../core/body.js'

export default class OrgsImplementationDocSet extends ApiCommand {
  static override summary = "Set the organization's implementation doc from a JSON file"
  static override description = 'Sends PUT /api/v1/orgs/{org}/implementation-doc with the JSON object read from FILE (or stdin for -).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --input implementation.json --org acme',
    'cat implementation.json | <%= config.bin %> <%= command.id %> --input -',
  ]

  static override flags = {
    input: Flags.string({description: 'JSON object file, or - for stdin', helpValue: 'FILE|-', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {flags} = await this.parse(OrgsImplementationDocSet)
    const label = `--input ${flags.input === '-' ? '(stdin)' : flags.input}`
    const doc = parseJsonObject(await readSource(flags.input, this.io.stdin, '--input'), label)
    const saved = await setImplementationDoc(await this.client(flags), await this.org(flags), doc)
    this.renderObject(saved)
    return saved
  }
}
