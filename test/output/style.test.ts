import {beforeAll, describe, expect, it} from 'vitest'
import {loadColors, palette, PLAIN, statusColour} from '../../src/output/style.js'

// Colour only through the palette a command is given; statuses have their colours (contract 1.4).
beforeAll(loadColors)

describe('statusColour', () => {
  // (after loadColors: chalk is loaded on demand)
  const colour = () => palette(true)
  it.each([
    ['succeeded', '\u001b[32m'],
    ['failed', '\u001b[31m'],
    ['running', '\u001b[33m'],
    ['queued', '\u001b[33m'],
    ['cancelled', '\u001b[2m'],
  ])('%s is painted %j', (status, code) => {
    expect(statusColour(status, colour())(status)).toMatch(new RegExp(`^\\u001b\\[${code.slice(2)}${status}\\u001b\\[\\d+m$`))
  })

  it('an unknown status stays plain, and nothing is painted without colour', () => {
    expect(statusColour('paused', colour())('paused')).toBe('paused')
    for (const status of ['succeeded', 'failed', 'running', 'cancelled']) expect(statusColour(status, PLAIN)(status)).toBe(status)
    expect(palette(false)).toBe(PLAIN)
  })
})
