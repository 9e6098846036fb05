import {beforeAll, describe, expect, it} from 'vitest'
import type {Column} from '../../src/output/format.js'
import {Renderer, styled} from '../../src/output/renderer.js'
import {loadColors, palette} from '../../src/output/style.js'
import {fakeIO} from '../helpers/fake-io.js'

// What a command hands its data to: the mode (terminal, pipe, --json) decides what is shown.
beforeAll(loadColors)

interface Row {
  id: string
  name: string
}
const COLUMNS: Column<Row>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'NAME', get: (r) => r.name, flexible: true},
]
const ROWS: Row[] = [
  {id: 'a1', name: 'first'},
  {id: 'b2', name: 'second\tone'},
]

function renderer(mode: 'tty' | 'piped' | 'json', colour = false) {
  const io = fakeIO({stdoutTTY: mode === 'tty', stderrTTY: mode === 'tty'})
  const out = new Renderer(io, {json: mode === 'json', style: palette(colour), errStyle: palette(colour), now: 0})
  return {out, io}
}

describe('Renderer', () => {
  it('a list: a table on a terminal, TSV rows when piped, nothing under --json', () => {
    const tty = renderer('tty')
    tty.out.list(ROWS, COLUMNS)
    expect(tty.io.out()).toBe('ID  NAME\na1  first\nb2  second\\u0009one\n')
    const piped = renderer('piped')
    piped.out.list(ROWS, COLUMNS)
    expect(piped.io.out()).toBe('a1\tfirst\nb2\tsecond\\tone\n')
    const json = renderer('json')
    json.out.list(ROWS, COLUMNS)
    expect(json.io.out() + json.io.err()).toBe('')
  })

  it('an empty list: "(none)" (or the text given) on stderr of a terminal, nothing piped', () => {
    const tty = renderer('tty')
    tty.out.list([], COLUMNS, '(no runs)')
    expect([tty.io.out(), tty.io.err()]).toEqual(['', '(no runs)\n'])
    const piped = renderer('piped')
    piped.out.list([], COLUMNS)
    expect([piped.io.out(), piped.io.err()]).toEqual(['', ''])
  })

  it('an object: key/value on a terminal, key<TAB>value piped', () => {
    const tty = renderer('tty')
    tty.out.object({id: 'x', count: 2})
    expect(tty.io.out()).toMatch(/^id: {5}x\ncount: {2}2\n$/)
    const piped = renderer('piped')
    piped.out.object({id: 'x', count: 2})
    expect(piped.io.out()).toBe('id\tx\ncount\t2\n')
  })

  it('an object without members: a line saying so on stderr of a terminal, nothing piped (issue 32 item 20)', () => {
    const tty = renderer('tty')
    tty.out.object({})
    expect([tty.io.out(), tty.io.err()]).toEqual(['', '(an empty answer: no members)\n'])
    const piped = renderer('piped')
    piped.out.object({})
    expect([piped.io.out(), piped.io.err()]).toEqual(['', ''])
    const json = renderer('json')
    json.out.object({})
    expect(json.io.out() + json.io.err()).toBe('')
  })

  it('text and blocks: terminal-safe on a terminal, as they are piped; a block keeps its lines', () => {
    const tty = renderer('tty')
    tty.out.text('a\u001b[2Jb')
    tty.out.block('line 1\nline\u0007 2')
    expect(tty.io.out()).toBe('a\\u001b[2Jb\nline 1\nline\\u0007 2\n')
    const piped = renderer('piped')
    piped.out.text('a\u001b[2Jb')
    piped.out.block('x\n')
    expect(piped.io.out()).toBe('a\u001b[2Jb\nx\n')
  })

  it('notices and warnings go to stderr in every mode, terminal-safe, styled only with colour', () => {
    for (const mode of ['tty', 'piped', 'json'] as const) {
      const {out, io} = renderer(mode)
      out.notice('code: ', styled('AB\u001bCD', 'bold'))
      out.warning('careful')
      expect(io.out()).toBe('')
      expect(io.err()).toBe('code: AB\\u001bCD\nwarning: careful\n')
    }
    const coloured = renderer('tty', true)
    coloured.out.warning('careful')
    expect(coloured.io.err()).toBe('\u001b[33mwarning:\u001b[39m careful\n')
  })

  it('says whether people are reading (human) and on a terminal (tty)', () => {
    expect([renderer('tty').out.human, renderer('tty').out.tty]).toEqual([true, true])
    expect([renderer('piped').out.human, renderer('piped').out.tty]).toEqual([true, false])
    expect([renderer('json').out.human, renderer('json').out.tty]).toEqual([false, false])
  })
})
