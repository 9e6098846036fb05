import {ExitCode} from '../../contract/vocabulary.js'

/**
 * The help topics (`amctl help environment|exit-codes|formatting`), as data. The same source
 * renders the terminal help, the sections of the same names in docs/scripting.md and the man
 * page, so the three cannot drift (test/base/help/docs.test.ts checks the documents and the man page).
 */

export interface Table {
  kind: 'table'
  headers: string[]
  rows: string[][]
}

export interface Paragraph {
  kind: 'text'
  text: string
}

export interface List {
  kind: 'list'
  items: string[]
}

export type Block = Table | Paragraph | List

export interface Topic {
  name: string
  title: string
  summary: string
  blocks: Block[]
}

const text = (t: string): Paragraph => ({kind: 'text', text: t})

export const ENVIRONMENT: Topic = {
  name: 'environment',
  title: 'Environment variables',
  summary: 'Every environment variable amctl reads',
  blocks: [
    {
      kind: 'table',
      headers: ['variable', 'meaning'],
      rows: [
        [
          'AMCTL_TOKEN',
          'the token to send; no stored login needed (CI); it wins over a stored token; set but empty exits 3 (a secret a pull request from a fork does not get)',
        ],
        ['AMCTL_BASE_URL', 'server root, like --base-url (/api/v1 is appended)'],
        ['AMCTL_ORG', 'organization slug or public ID, like --org'],
        ['AMCTL_RUN_URL', "a run's page for the HTML report's links, like --run-url ({id}: the run's ID)"],
        ['AMCTL_PROFILE', 'profile in the config, like --profile (default "default")'],
        ['AMCTL_TIMEOUT', 'per-request timeout in seconds, like --timeout (default 30)'],
        ['AMCTL_DEBUG=1', 'log every request to stderr (like --verbose) and show stack traces'],
        ['AMCTL_CONFIG_DIR', 'the config directory (default: $XDG_CONFIG_HOME/amctl or ~/.config/amctl)'],
        [
          'AMCTL_KEYCHAIN=off',
          'never use the OS keychain; tokens go to credentials.json (auto, the default, tries the keychain first; any other value exits 2)',
        ],
        [
          'AMCTL_CACHE_DIR',
          "the cache directory: code caches and a terminal's help, which speed up start-up, and the IDs shell completion offers (default: $XDG_CACHE_HOME/amctl or ~/.cache/amctl)",
        ],
        ['AMCTL_CODE_CACHE=off', 'start without a code cache (slower; for measuring start-up)'],
        ['AMCTL_HELP_CACHE=off', 'draw help at run time, not the help drawn at build time or kept for a terminal (slower; for measuring)'],
        [
          'AMCTL_DOCS_URL',
          "an http(s) URL of amctl's docs/ folder: the gate's Markdown summary and comment link docs/ci.md there (the Action sets its own release's)",
        ],
        ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'proxies for remote servers (loopback hosts are always reached directly)'],
        ['NO_COLOR, FORCE_COLOR=0, CLICOLOR=0', 'no colour'],
        ['CLICOLOR_FORCE', 'set (not 0): colour where there is no terminal too, e.g. a CI log (NO_COLOR and FORCE_COLOR=0 still win)'],
        ['BROWSER', 'the program that opens the login page'],
        ['CI', 'set (but not false or 0): auth login without --with-token exits 2 at once, as no one could approve a device login'],
      ],
    },
    text('Precedence: flag > environment > profile in the config > built-in default.'),
  ],
}

export const EXIT_CODES: Topic = {
  name: 'exit-codes',
  title: 'Exit codes',
  summary: 'What each exit code means, for scripts and CI steps',
  blocks: [
    {
      kind: 'table',
      headers: ['exit', 'when', 'error code'],
      rows: [
        [String(ExitCode.ok), 'success', ''],
        [
          String(ExitCode.failure),
          'unexpected: a network failure, a 5xx, an answer that is not the JSON expected; a stdout that cannot be written',
          'bad_response, network_error, output_error',
        ],
        [String(ExitCode.usage), 'invalid usage or input, found before any request; or invalid_request from the server', 'invalid_request'],
        [String(ExitCode.auth), 'not logged in, a missing or rejected token', 'unauthorized'],
        [String(ExitCode.forbidden), 'access denied, a retired route, a capability not enabled', 'forbidden'],
        [String(ExitCode.notFound), 'not found', 'not_found'],
        [String(ExitCode.conflict), 'conflict', 'conflict'],
        [String(ExitCode.rateLimited), 'rate limited after retries', 'rate_limited'],
        [String(ExitCode.account), 'the account state blocks the work', 'insufficient_credits, needs_provider_key'],
        [String(ExitCode.outcomeUnknown), 'a create or launch was sent and no answer came: check before retrying', 'outcome_unknown'],
        [String(ExitCode.notPassed), 'waited runs finished, but not all passed (failed, cancelled, below --min-score or --max-drop)', ''],
        [
          String(ExitCode.waitTimeout),
          'the wait ended (--wait-timeout) before every run finished and was judged, or before its --baseline RUN_ID was found',
          'wait_timeout',
        ],
        [String(ExitCode.interrupted), 'interrupted (Ctrl-C)', ''],
        [
          String(ExitCode.terminated),
          'stopped by SIGTERM (a cancelled or timed-out CI job), as Ctrl-C stops it: 128 + 15, as a shell reports it',
          '',
        ],
      ],
    },
    text(
      'An error is one line on stderr, `error: <message> (<code>, HTTP <status>)`, and at most one `hint:` line; with --json it is the ' +
        'document {"error":{"code","message","status"}} on stdout instead. No stack trace unless AMCTL_DEBUG=1. ' +
        "The message is the server's, unchanged; what amctl knows about the failed request (which resource, which page of a list, " +
        'which poll of a wait) comes before it on the error line, left out when the message already names it, and is ' +
        '"context" in the --json document.',
    ),
  ],
}

export const FORMATTING: Topic = {
  name: 'formatting',
  title: 'Output formats',
  summary: 'Tables, tab-separated rows, --json and --jq',
  blocks: [
    text(
      'stdout carries only data; messages, notices, warnings, progress and hints go to stderr, so `x=$(amctl …)` captures the data alone.',
    ),
    {
      kind: 'list',
      items: [
        'On a terminal: lists as tables fitted to its width (relative times, coloured run statuses), objects as aligned key/value (an empty list or an answer of {} says so on stderr: "(none)", "(an empty answer: no members)"), colour unless NO_COLOR, FORCE_COLOR=0 or CLICOLOR=0 (CLICOLOR_FORCE colours messages off a terminal too).',
        'Piped: lists as tab-separated rows without a header, the ID first; objects as key<TAB>value lines, nested values as compact JSON; an empty list or object is no line at all. No colour.',
        'In tab-separated output a backslash, tab, newline and carriage return inside a value are written `\\\\`, `\\t`, `\\n` and `\\r`, other control characters `\\u00XX` (bidi controls and the line and paragraph separators too, as `\\u202e`, `\\u2028`): one record per line.',
        '--json: the answer exactly as the API gave it, one document (pretty on a terminal, compact piped); lists keep {"items":[…],"nextCursor":…}. It holds no raw control character: DEL and C1 controls, bidi controls and U+2028/U+2029, which JSON allows raw, are written `\\uXXXX` too (the same value).',
        '--jq EXPR (or -q EXPR, as gh has it): a jq expression applied to the document --json would print; each result on its own line, strings raw, other values as compact JSON (like `--json | jq -r -c EXPR`); no jq install needed. With --all or --paginate it sees the whole {"items":[…]} document.',
        '--all and api --paginate stream page by page; if a page fails midway, --json closes the document as {"items":[…],"error":{…}}.',
        'Text from the server is never a terminal command: control characters are shown as `\\u00XX`, and so are the bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029), which would show a name reversed or break its line (`\\u202e`, `\\u2028`).',
        'A reader that goes away (`| head -1`) ends amctl at once with exit 0. A stdout that cannot be written (a full disk, a terminal gone) is one error line on stderr (output_error) and exit 1, or the exit code the outcome already had: the verdict of a wait (10, 11), a launch with no answer (9).',
      ],
    },
  ],
}

export const HELP_TOPICS: readonly Topic[] = [ENVIRONMENT, EXIT_CODES, FORMATTING]

export function findTopic(name: string): Topic | undefined {
  return HELP_TOPICS.find((topic) => topic.name === name)
}
