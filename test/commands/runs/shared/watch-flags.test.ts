import {describe, expect, it} from 'vitest'
import {againCommand, parseWatchOptions, WATCH_DEFAULTS, watchFlagWords} from '../../../../src/commands/runs/shared/watch-flags.js'
import {UsageError} from '../../../../src/core/errors.js'

// The wait flags of `runs watch` and `evals run --wait` (contract 5), checked before any request.
describe('parseWatchOptions', () => {
  it('defaults: a poll every 5 s, up to 60 minutes, no fail-fast, no minimum score', () => {
    expect(parseWatchOptions({})).toEqual({intervalS: WATCH_DEFAULTS.intervalS, timeoutS: 3600, failFast: false, minScore: undefined})
  })

  it('reads what is given', () => {
    expect(parseWatchOptions({interval: '2.5', 'wait-timeout': '90s', 'fail-fast': true, 'min-score': '0.8'})).toEqual({
      intervalS: 2.5,
      timeoutS: 90,
      failFast: true,
      minScore: 0.8,
    })
    expect(parseWatchOptions({'wait-timeout': '0'}).timeoutS).toBe(0)
  })

  it.each([
    [{interval: '0.5'}, '--interval'],
    [{interval: '86401'}, '--interval'],
    [{'min-score': '1.5'}, '--min-score'],
    [{'wait-timeout': 'soon'}, '--wait-timeout'],
  ])('%j → exit 2 naming %s', (flags, name) => {
    expect(() => parseWatchOptions(flags)).toThrow(UsageError)
    expect(() => parseWatchOptions(flags)).toThrow(name)
  })
})

describe('againCommand', () => {
  it('repeats the runs once each, the org, server and wait flags, quoted for the shell', () => {
    expect(watchFlagWords({interval: '2', 'fail-fast': true})).toEqual(['--interval', '2', '--fail-fast'])
    expect(againCommand(['r1', 'r 2', 'r1'], 'acme', {profile: 'ci', 'base-url': 'https://a.example', 'min-score': '0.5'})).toBe(
      "amctl runs watch r1 'r 2' --org acme --profile ci --base-url https://a.example --min-score 0.5",
    )
  })
})
