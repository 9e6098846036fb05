import {Flags} from '@oclif/core'
import {PAGE_LIMIT} from '../contract/vocabulary.js'

/**
 * Every flag that more than one command takes, defined once. Every command that talks to the API
 * takes all the global flags `amctl --help` lists (`orgFlags`, through ApiCommand); one a command
 * has no use for is accepted and ignored, as its environment variable is, and left out of that
 * command's help (`apiFlags`). The config commands take `profileFlags`, `dev server` and the other
 * local commands `outputFlags`. Every group holds `outputFlags`, as every command has --json.
 */

const GLOBAL = 'GLOBAL'

/** What every command with --json takes (oclif adds --json through `enableJsonFlag`; this description wins). */
export const outputFlags = {
  json: Flags.boolean({description: 'print one JSON document on stdout, errors too', helpGroup: GLOBAL}),
  jq: Flags.string({
    char: 'q',
    description:
      'print the output through a jq expression, like --json | jq -r -c EXPR (with --all or --paginate every page is held in memory first)',
    helpValue: 'EXPR',
    helpGroup: GLOBAL,
  }),
}

/** The arguments before a `--` (what follows it is never a flag). */
function flagPart(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--')
  return end === -1 ? argv : argv.slice(0, end)
}

/**
 * Whether --jq (or -q, as gh has it: `-q EXPR`, `-qEXPR`, `-q=EXPR`) is among the arguments
 * (before a `--`): it implies --json for the output, and makes errors show as without --json
 * even when the arguments do not parse.
 */
export function jqInArgv(argv: readonly string[]): boolean {
  return flagPart(argv).some((arg) => arg === '--jq' || arg.startsWith('--jq=') || /^-q(?!-)/.test(arg))
}

/** Whether --json is among the arguments (before a `--`). */
export function jsonInArgv(argv: readonly string[]): boolean {
  return flagPart(argv).includes('--json')
}

/**
 * Whether an error is written as the JSON document on stdout (contract 1.5): --json was given
 * and --jq was not (with --jq, errors show as without --json). The one rule for every error,
 * inside a command or before one ran, even when the arguments do not parse.
 */
export function errorsAsJson(argv: readonly string[]): boolean {
  return jsonInArgv(argv) && !jqInArgv(argv)
}

export const profileFlags = {
  ...outputFlags,
  profile: Flags.string({
    description: 'named profile in the config [env: AMCTL_PROFILE] (default "default")',
    helpGroup: GLOBAL,
    helpValue: 'NAME',
  }),
}

/** Which server, and so which stored token. */
const serverFlags = {
  ...profileFlags,
  'base-url': Flags.string({description: 'server root; /api/v1 is appended [env: AMCTL_BASE_URL]', helpGroup: GLOBAL, helpValue: 'URL'}),
}

/** Commands that send requests. */
const requestFlags = {
  ...serverFlags,
  timeout: Flags.string({
    description: 'per-request timeout in seconds [env: AMCTL_TIMEOUT] (default 30)',
    helpGroup: GLOBAL,
    helpValue: 'SECONDS',
  }),
  verbose: Flags.boolean({description: 'log each request to stderr [env: AMCTL_DEBUG=1]', helpGroup: GLOBAL}),
}

/** The global flags: every command that talks to the API takes them all. */
export const orgFlags = {
  ...requestFlags,
  org: Flags.string({description: 'organization slug or public ID [env: AMCTL_ORG]', helpGroup: GLOBAL, helpValue: 'ORG'}),
}

/**
 * The global flags of a command that talks to the API, those in `unused` (--org where the request
 * names no organization, --timeout and --verbose where no request is sent) accepted and ignored,
 * as their environment variables are, and left out of the command's help: a script can give every
 * command the same global flags, as gh's commands all take its global ones. A value such a flag
 * cannot have is still refused, as its variable's is.
 */
export function apiFlags(unused: readonly (keyof typeof orgFlags)[]): typeof orgFlags {
  const flags: Record<string, unknown> = {...orgFlags}
  for (const name of unused) flags[name] = {...orgFlags[name], hidden: true}
  return flags as typeof orgFlags
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
  'raw-field': Flags.string({
    char: 'f',
    multiple: true,
    multipleNonGreedy: true,
    description: 'body field key=value, always a string',
    helpGroup: 'BODY',
  }),
  input: Flags.string({description: 'the whole JSON object body from FILE, or - for stdin', helpValue: 'FILE|-', helpGroup: 'BODY'}),
}

/** --yes: confirm a delete without a prompt (required when not on a terminal). */
export const yesFlag = Flags.boolean({char: 'y', description: 'delete without asking (required when not on a terminal)'})

/**
 * --limit, --cursor, --all: every command that lists a collection the API pages takes these, as
 * `runs list` does in the contract (cli-contract.md 3), and reads them with ListCommand's `paging`.
 */
export const pageFlags = {
  limit: Flags.string({char: 'L', description: `page size, ${PAGE_LIMIT.min}–${PAGE_LIMIT.max}`}),
  cursor: Flags.string({description: 'start from this cursor (a nextCursor value)'}),
  all: Flags.boolean({description: 'follow nextCursor to the last page, streaming'}),
}
