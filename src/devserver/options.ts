/**
 * The dev server's option values, on their own so `amctl dev server` can declare its flags
 * without loading the server (which it imports only when it runs).
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
