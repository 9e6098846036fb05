import {Flags} from '@oclif/core'
import {parseDuration, parseNumberInRange} from '../../../input/values.js'
import {shellLine} from './shell.js'
import type {WatchOptions} from './watch.js'

/** Defaults and bounds of the wait flags (contract 5). */
export const WATCH_DEFAULTS = {intervalS: 5, minIntervalS: 1, maxIntervalS: 86_400, timeout: '60m'} as const

const WAIT = 'WAIT'
const {minIntervalS, maxIntervalS} = WATCH_DEFAULTS

/** The four flags of a wait, defined once: `runs watch` and `evals run --wait`. */
export const watchFlags = {
  interval: Flags.string({
    description: `seconds between polls, ${minIntervalS}–${maxIntervalS} (default ${WATCH_DEFAULTS.intervalS})`,
    helpValue: 'SECONDS',
    helpGroup: WAIT,
  }),
  'wait-timeout': Flags.string({
    description: `stop waiting after 90s, 15m, 2h or N seconds; 0 = no limit (default ${WATCH_DEFAULTS.timeout}); exit 11`,
    helpValue: 'DURATION',
    helpGroup: WAIT,
  }),
  'fail-fast': Flags.boolean({description: 'stop at the first run that failed, was cancelled or missed --min-score', helpGroup: WAIT}),
  'min-score': Flags.string({
    description: 'a succeeded run also needs a score of at least X, 0–1 (a run without a score fails)',
    helpValue: 'X',
    helpGroup: WAIT,
  }),
}

export type WatchFlagValues = {interval?: string; 'wait-timeout'?: string; 'fail-fast'?: boolean; 'min-score'?: string}
type ServerFlagValues = {profile?: string; 'base-url'?: string}

/** The wait flags, checked (exit 2 before any request). */
export function parseWatchOptions(flags: WatchFlagValues): WatchOptions {
  const seconds = `a number of seconds from ${minIntervalS} to ${maxIntervalS}`
  const interval = flags.interval
  const minScore = flags['min-score']
  return {
    intervalS:
      interval === undefined ? WATCH_DEFAULTS.intervalS : parseNumberInRange('--interval', interval, minIntervalS, maxIntervalS, seconds),
    timeoutS: parseDuration('--wait-timeout', flags['wait-timeout'] ?? WATCH_DEFAULTS.timeout),
    failFast: flags['fail-fast'] ?? false,
    minScore: minScore === undefined ? undefined : parseNumberInRange('--min-score', minScore, 0, 1, 'a score from 0 to 1'),
  }
}

/** The wait flags as given, to repeat them in a command line. */
export function watchFlagWords(flags: WatchFlagValues): string[] {
  const words: string[] = []
  for (const name of ['interval', 'wait-timeout', 'min-score'] as const) if (flags[name] !== undefined) words.push(`--${name}`, flags[name])
  if (flags['fail-fast']) words.push('--fail-fast')
  return words
}

/** `amctl runs watch …` with the same runs, organization, server and wait flags. */
export function againCommand(ids: readonly string[], org: string, flags: WatchFlagValues & ServerFlagValues): string {
  const words = ['amctl', 'runs', 'watch', ...new Set(ids), '--org', org]
  for (const name of ['profile', 'base-url'] as const) if (flags[name] !== undefined) words.push(`--${name}`, flags[name])
  return shellLine([...words, ...watchFlagWords(flags)])
}
