import {describe, expect, it} from 'vitest'
import {DEFAULT_BASE_URL} from '../../src/core/config.js'
import {UsageError} from '../../src/core/errors.js'
import {parseTimeout, resolveProfile, resolveSettings} from '../../src/core/settings.js'

const PROFILE = {'base-url': 'https://profile.example', org: 'profile-org'}

describe('resolveSettings precedence: flag > env > profile > default', () => {
  it('base-url', () => {
    const env = {AMCTL_BASE_URL: 'https://env.example/'}
    expect(resolveSettings({'base-url': 'https://flag.example'}, PROFILE, env).baseUrl).toBe('https://flag.example')
    expect(resolveSettings({}, PROFILE, env).baseUrl).toBe('https://env.example')
    expect(resolveSettings({}, PROFILE, {}).baseUrl).toBe('https://profile.example')
    expect(resolveSettings({}, {}, {}).baseUrl).toBe(DEFAULT_BASE_URL)
    // an empty variable counts as unset
    expect(resolveSettings({}, PROFILE, {AMCTL_BASE_URL: ''}).baseUrl).toBe('https://profile.example')
  })

  it('org', () => {
    const env = {AMCTL_ORG: 'env-org'}
    expect(resolveSettings({org: 'flag-org'}, PROFILE, env).org).toBe('flag-org')
    expect(resolveSettings({}, PROFILE, env).org).toBe('env-org')
    expect(resolveSettings({}, PROFILE, {}).org).toBe('profile-org')
    expect(resolveSettings({}, {}, {}).org).toBeUndefined()
  })

  it('timeout (no profile key): flag > env > 30 s', () => {
    expect(resolveSettings({timeout: '5'}, {}, {AMCTL_TIMEOUT: '7'}).timeoutMs).toBe(5000)
    expect(resolveSettings({}, {}, {AMCTL_TIMEOUT: '7'}).timeoutMs).toBe(7000)
    expect(resolveSettings({}, {}, {}).timeoutMs).toBe(30_000)
  })

  it('profile: flag > env > "default"', () => {
    expect(resolveProfile({profile: 'flagp'}, {AMCTL_PROFILE: 'envp'})).toBe('flagp')
    expect(resolveProfile({}, {AMCTL_PROFILE: 'envp'})).toBe('envp')
    expect(resolveProfile({}, {})).toBe('default')
    expect(resolveSettings({}, {}, {AMCTL_PROFILE: 'envp'}).profile).toBe('envp')
  })

  it('verbose from --verbose or AMCTL_DEBUG=1', () => {
    expect(resolveSettings({verbose: true}, {}, {}).verbose).toBe(true)
    expect(resolveSettings({}, {}, {AMCTL_DEBUG: '1'}).verbose).toBe(true)
    expect(resolveSettings({}, {}, {}).verbose).toBe(false)
  })

  it('validates each value and names its source', () => {
    expect(() => resolveSettings({'base-url': 'http://flag.example'}, {}, {})).toThrow(/^--base-url "http:\/\/flag.example" must use https/)
    expect(() => resolveSettings({}, {}, {AMCTL_BASE_URL: 'nope'})).toThrow(/^AMCTL_BASE_URL "nope"/)
    expect(() => resolveSettings({}, {'base-url': 'http://evil.example'}, {})).toThrow(/profile "default"/)
    expect(() => resolveSettings({org: 'a\tb'}, {}, {})).toThrow(/^--org must not contain control characters, got "a\\tb"/)
    expect(() => resolveSettings({}, {}, {AMCTL_ORG: '..'})).toThrow(/^AMCTL_ORG cannot be "\.\."/)
    expect(resolveSettings({}, {}, {AMCTL_ORG: 'x/y'}).org).toBe('x/y')
    expect(() => resolveSettings({}, {}, {AMCTL_TIMEOUT: 'soon'})).toThrow(/^AMCTL_TIMEOUT/)
    expect(() => resolveSettings({}, {}, {AMCTL_PROFILE: '../etc'})).toThrow(UsageError)
  })
})

describe('parseTimeout', () => {
  it.each([
    ['30', 30_000],
    ['1', 1000],
    ['0.5', 500],
    ['86400', 86_400_000],
  ])('%j → %i ms', (value, ms) => {
    expect(parseTimeout(value, '--timeout')).toBe(ms)
  })

  it.each(['0', '-1', 'abc', '', ' ', '86401', 'Infinity', 'NaN', '1e9'])('refuses %j (exit 2)', (value) => {
    try {
      parseTimeout(value, '--timeout')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError)
      expect((error as UsageError).exitCode).toBe(2)
      expect((error as UsageError).message).toMatch(/^--timeout must be a number of seconds/)
    }
  })
})
