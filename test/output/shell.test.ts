import {describe, expect, it} from 'vitest'
import {shellLine, shellWord} from '../../src/output/shell.js'

// Command lines amctl prints to paste back (more:, watch them again): a POSIX shell must read
// each word back as it was.
describe('shellWord / shellLine', () => {
  it('leaves plain words as they are', () => {
    expect(shellLine(['amctl', 'runs', 'list', '--cursor', 'c_1.x', '--base-url', 'https://a.example:8443/p'])).toBe(
      'amctl runs list --cursor c_1.x --base-url https://a.example:8443/p',
    )
  })

  it.each([
    ['a b', "'a b'"],
    ["c'1 x", "'c'\\''1 x'"],
    ['', "''"],
    ['$HOME', "'$HOME'"],
    ['a;rm -rf /', "'a;rm -rf /'"],
    ['`x`', "'`x`'"],
  ])('%j → %s', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted)
  })
})
