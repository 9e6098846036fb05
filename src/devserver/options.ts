/**
 * The dev server's option values and the list of its test hooks, on their own so
 * `amctl dev server` can declare its flags and write its help without loading the server
 * (which it imports only when it runs).
 */
export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'
export const SEED_KINDS = ['default', 'empty'] as const
export type SeedKind = (typeof SEED_KINDS)[number]
export const APPROVE_MODES = ['auto', 'manual'] as const
export type ApproveMode = (typeof APPROVE_MODES)[number]
/** Seconds a launched or forked run takes from `queued` to its outcome. */
export const DEFAULT_RUN_SECONDS = 10

/** Whether only this machine can reach `host` (elsewhere, anyone could use the token-less /_dev/ hooks). */
export {isLoopbackHost} from '../contract/vocabulary.js'

/** Where the test hooks live (dev server only; not part of the API). */
export const HOOKS_PREFIX = '/_dev'

// Every hook under /_dev/, as `amctl dev server --help` documents it: generated from the hooks'
// OpenAPI document (src/devserver/dev-openapi.json); test/devserver checks that the server
// registers exactly these.
export {HOOKS, type HookDoc} from './dev-routes.js'

/** The syntax of `match.path` and `?path=`, for the help. */
export const PATTERN_SYNTAX =
  'A path pattern matches any path containing it; ^ at its start ties it to the start, $ at its end to the end, * stands for any ' +
  'characters; nothing else is special (regular expressions are refused).'
