import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/core/errors.js'
import {
  parseDuration,
  parseExpiry,
  parseIntegerInRange,
  parseNumberInRange,
  parseTimeBound,
  requireId,
  requireText,
} from '../../src/input/values.js'
import {chompNewline} from '../../src/input/files.js'

function refused(fn: () => unknown, message?: RegExp): void {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).exitCode).toBe(2)
    if (message) expect((error as Error).message).toMatch(message)
    return
  }
  throw new Error('expected a UsageError')
}

describe('parseExpiry', () => {
  it.each([
    ['1d', '1d'],
    ['30d', '30d'],
    ['3650d', '3650d'],
    ['030d', '30d'],
    [' 7d ', '7d'],
  ])('accepts %j as %j', (value, canonical) => {
    expect(parseExpiry('--expires', value)).toBe(canonical)
  })

  it.each(['0d', '3651d', '30', 'd', 'abc', '', '-1d', '1.5d', '30D', '30 d', '1w'])('refuses %j', (value) => {
    refused(() => parseExpiry('--expires', value), /^--expires /)
  })
})

describe('requireId (contract 3: the server decides whether an ID exists)', () => {
  it.each(['run_01HX', ' ', 'a b', 'a/b', 'a?b', 'a#b', 'a%b', 'a\\b', '...', 'café', '日本', '.x', 'x.'])(
    'accepts %j as it is',
    (value) => {
      expect(requireId('RUN_ID', value)).toBe(value)
    },
  )
  it.each(['', '.', '..', 'a\nb', 'a\tb', 'esc\u001b[2J', 'del\u007f', 'c1\u009b'])('refuses %j', (value) => {
    refused(() => requireId('RUN_ID', value), /^RUN_ID /)
  })
})

describe('parseIntegerInRange / requireText', () => {
  it('reads whole numbers within bounds', () => {
    expect(parseIntegerInRange('--samples', '50', 1, 50)).toBe(50)
    expect(parseIntegerInRange('--samples', ' 1 ', 1, 50)).toBe(1)
    for (const bad of ['0', '51', '1.5', '1e1', 'x', '']) refused(() => parseIntegerInRange('--samples', bad, 1, 50), /--samples/)
  })
  it('requires non-empty text', () => {
    expect(requireText('--name', 'ci')).toBe('ci')
    refused(() => requireText('--name', '  '), /--name must not be empty/)
    refused(() => requireText('--name', undefined))
  })
})

describe('chompNewline', () => {
  it('removes exactly one trailing newline', () => {
    expect(chompNewline('a\n')).toBe('a')
    expect(chompNewline('a\r\n')).toBe('a')
    expect(chompNewline('a\n\n')).toBe('a\n')
    expect(chompNewline('a')).toBe('a')
  })
})

describe('parseDuration (--wait-timeout)', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['2h', 7200],
    ['90', 90],
    ['0', 0],
    ['0s', 0],
    [' 5m ', 300],
    ['007', 7],
  ])('accepts %j as %d seconds', (value, seconds) => {
    expect(parseDuration('--wait-timeout', value)).toBe(seconds)
  })

  const FORMS = /^--wait-timeout must be a duration such as 90s, 15m, 2h or a number of seconds, got /
  const BAD = ['', 's', '1.5h', '-5', '5 m', '1h30m', '2d', '15M', 'ten', '1e3', '9999999999']
  it.each(BAD)('refuses %j naming the accepted forms', (value) => {
    refused(() => parseDuration('--wait-timeout', value), FORMS)
  })
})

describe('parseDuration with days (--baseline-window, --since)', () => {
  it('takes 30d as 30 days, and every form without days', () => {
    expect(parseDuration('--baseline-window', '30d', {days: true})).toBe(30 * 86_400)
    expect(parseDuration('--baseline-window', '2h', {days: true})).toBe(7200)
    refused(() => parseDuration('--baseline-window', '2w', {days: true}), /such as 90s, 15m, 2h, 30d or a number of seconds, got "2w"/)
  })
})

describe('parseTimeBound (--since, --until)', () => {
  const now = Date.parse('2026-11-25T12:00:00Z')
  it.each([
    ['7d', '2026-11-18T12:00:00.000Z'],
    ['12h', '2026-11-25T00:00:00.000Z'],
    ['90m', '2026-11-25T10:30:00.000Z'],
    ['3600', '2026-11-25T11:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T09:30', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:15.25Z', '2026-11-01T09:30:15.250Z'],
    ['2026-11-01T11:30:00+02:00', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T05:30-04:00', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T23:30+14:00', '2026-11-01T09:30:00.000Z'],
    ['2026-10-31T21:30-12:00', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T15:15+05:45', '2026-11-01T09:30:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('%j is %s (a date without a zone is UTC)', (value, iso) => {
    expect(new Date(parseTimeBound('--since', value, now)).toISOString()).toBe(iso)
  })

  it.each(['', 'yesterday', '2026-02-30', '2025-02-29', '2026-11-01T25:00', '2026-1-1', '2026-11-01 09:30', '-1d', '1w'])(
    'refuses %j naming the flag and the forms',
    (value) => {
      refused(() => parseTimeBound('--until', value, now), /^--until must be a duration before now \(7d, 12h, 90m\) or a date/)
    },
  )
})

describe('parseTimeBound: UTC offsets no clock uses', () => {
  it.each(['+99:00', '+14:01', '-12:30', '+15:00', '+05:60', '-23:59'])('refuses %s naming the offset and the range', (zone) => {
    const value = `2026-11-25T21:00:00${zone}`
    refused(
      () => parseTimeBound('--since', value, Date.parse('2026-11-25T12:00:00Z')),
      new RegExp(`^--since: the UTC offset must be from -12:00 to \\+14:00, got "\\${zone}" in "${value.replace('+', '\\+')}"`),
    )
  })
})

describe('parseNumberInRange (--min-score, --interval)', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['0.5', 0.5],
    ['.75', 0.75],
    ['1.', 1],
    [' 0.25 ', 0.25],
  ])('accepts %j as %d', (value, n) => {
    expect(parseNumberInRange('--min-score', value, 0, 1)).toBe(n)
  })

  it.each(['', '-0.1', '1.01', '2', 'abc', '0x1', '1e-1', 'NaN', 'Infinity', '.', '0,5'])('refuses %j', (value) => {
    refused(() => parseNumberInRange('--min-score', value, 0, 1, 'a score from 0 to 1'), /^--min-score must be a score from 0 to 1, got "/)
  })

  it('says what is accepted by default', () => {
    refused(() => parseNumberInRange('--interval', '0.5', 1, 60), /^--interval must be a number from 1 to 60, got "0.5"$/)
  })
})
