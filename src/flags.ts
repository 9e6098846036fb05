import {Flags} from '@oclif/core'

/** Flags shared by several commands, defined once. */

/** -F / -f / --input: every command that sends a free-form body (cli-contract.md section 3). */
export const bodyFlags = {
  field: Flags.string({
    char: 'F',
    multiple: true,
    description: 'body field key=value, typed: true, false, null, numbers, JSON arrays/objects; @file reads a file',
    helpGroup: 'BODY',
  }),
  'raw-field': Flags.string({char: 'f', multiple: true, description: 'body field key=value, always a string', helpGroup: 'BODY'}),
  input: Flags.string({description: 'the whole JSON object body from FILE, or - for stdin', helpValue: 'FILE|-', helpGroup: 'BODY'}),
}

/** --yes: confirm a delete without a prompt (required when not on a terminal). */
export const yesFlag = Flags.boolean({char: 'y', description: 'delete without asking (required when not on a terminal)'})
