import {Flags} from '@oclif/core'

/**
 * Every flag that more than one command takes, defined once. Commands take the groups they use:
 * an org-scoped API command all of `orgFlags`, `runs fork` (no org in its path) `requestFlags`,
 * `auth token` and `auth logout` (no request) `serverFlags`, the config commands `profileFlags`.
 */

const GLOBAL = 'GLOBAL'

export const profileFlags = {
  profile: Flags.string({description: 'named profile in the config [env: AMCTL_PROFILE] (default "default")', helpGroup: GLOBAL, helpValue: 'NAME'}),
}

/** Which server, and so which stored token. */
export const serverFlags = {
  ...profileFlags,
  'base-url': Flags.string({description: 'server root; /api/v1 is appended [env: AMCTL_BASE_URL]', helpGroup: GLOBAL, helpValue: 'URL'}),
}

/** Commands that send requests. */
export const requestFlags = {
  ...serverFlags,
  timeout: Flags.string({description: 'per-request timeout in seconds [env: AMCTL_TIMEOUT] (default 30)', helpGroup: GLOBAL, helpValue: 'SECONDS'}),
  verbose: Flags.boolean({description: 'log each request to stderr [env: AMCTL_DEBUG=1]', helpGroup: GLOBAL}),
}

/** Commands whose requests name an organization. */
export const orgFlags = {
  ...requestFlags,
  org: Flags.string({description: 'organization slug or public ID [env: AMCTL_ORG]', helpGroup: GLOBAL, helpValue: 'ORG'}),
}

/** -F / -f / --input: every command that sends a free-form body (cli-contract.md section 3). */
export const bodyFlags = {
  field: Flags.string({
    char: 'F',
    multiple: true,
    multipleNonGreedy: true,
    description: 'body field key=value, typed: true, false, null, numbers, JSON arrays/objects; @file reads a file',
    helpGroup: 'BODY',
  }),
  'raw-field': Flags.string({char: 'f', multiple: true, multipleNonGreedy: true, description: 'body field key=value, always a string', helpGroup: 'BODY'}),
  input: Flags.string({description: 'the whole JSON object body from FILE, or - for stdin', helpValue: 'FILE|-', helpGroup: 'BODY'}),
}

/** --yes: confirm a delete without a prompt (required when not on a terminal). */
export const yesFlag = Flags.boolean({char: 'y', description: 'delete without asking (required when not on a terminal)'})
