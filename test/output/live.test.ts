import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {LiveView} from '../../src/output/live.js'
import {PLAIN, type Style} from '../../src/output/style.js'
import {fakeIO} from '../helpers/fake-io.js'
import {type FakeSignals, fakeSignals} from '../helpers/fake-signals.js'

const COLUMNS = [{header: 'RUN', flexible: true}, {header: 'STATUS'}]
const UP_AND_ERASE = /\u001B\[(\d+)F\u001B\[J/
const settle = () => new Promise((resolve) => setImmediate(resolve))

/** A style that marks what it colours, to see where colour goes. */
const MARKED: Style = {...PLAIN, dim: (t) => `<dim>${t}</dim>`, bold: (t) => `<b>${t}</b>`}

/** A TTY stderr of the given size. */
function terminal(columns?: number, rows?: number) {
  const io = fakeIO({stderrTTY: true})
  Object.assign(io.stderr, {columns, rows})
  return io
}

let signals: FakeSignals
beforeEach(() => {
  signals = fakeSignals()
})
afterEach(() => {
  expect(signals.exitHandlers(), 'the exit hook is removed once the view is cleared').toBe(0)
})

describe('LiveView', () => {
  it('draws nothing when stderr is not a terminal', async () => {
    const io = fakeIO({stderrTTY: false, stdoutTTY: true})
    const view = new LiveView(io, PLAIN, signals)
    view.draw(COLUMNS, [[{text: 'run_1'}, {text: 'queued'}]], {text: 'footer'})
    view.clear()
    await settle()
    expect(view.active).toBe(false)
    expect(io.err()).toBe('')
    expect(io.out()).toBe('')
  })

  it('draws a header, one line per row and the footer; a redraw moves back up over all of them first', async () => {
    const io = terminal()
    const view = new LiveView(io, MARKED, signals)
    const yellow = (t: string) => `<y>${t}</y>`
    const rows = [
      [{text: 'run_1'}, {text: 'queued', paint: yellow}],
      [{text: 'run_22'}, {text: 'running'}],
    ]
    view.draw(COLUMNS, rows, {text: '0 of 2', paint: MARKED.dim})
    await settle()
    expect(io.err()).toBe('<b>RUN     STATUS</b>\nrun_1   <y>queued</y>\nrun_22  running\n<dim>0 of 2</dim>\n')
    view.draw(
      COLUMNS,
      [
        [{text: 'run_1'}, {text: 'succeeded'}],
        [{text: 'run_22'}, {text: 'running'}],
      ],
      {text: '1 of 2'},
    )
    await settle()
    const second = io.err().slice('<b>RUN     STATUS</b>\nrun_1   <y>queued</y>\nrun_22  running\n<dim>0 of 2</dim>\n'.length)
    expect(second.match(UP_AND_ERASE)?.[1]).toBe('4')
    expect(second.replace(UP_AND_ERASE, '')).toBe('<b>RUN     STATUS</b>\nrun_1   succeeded\nrun_22  running\n1 of 2\n')
    view.clear()
    await settle()
    expect(io.err().endsWith('\u001B[4F\u001B[J')).toBe(true)
    expect(io.out()).toBe('')
  })

  it('an unchanged frame is not written again', async () => {
    const io = terminal()
    const view = new LiveView(io, PLAIN, signals)
    view.draw(COLUMNS, [[{text: 'a'}, {text: 'b'}]])
    await settle()
    const once = io.err()
    view.draw(COLUMNS, [[{text: 'a'}, {text: 'b'}]])
    await settle()
    expect(io.err()).toBe(once)
    view.clear()
  })

  it('server text cannot drive the terminal: control characters are written visibly', async () => {
    const io = terminal()
    const view = new LiveView(io, PLAIN, signals)
    view.draw(COLUMNS, [[{text: 'run_\u001b[2J'}, {text: 'ok\u009b31m\r'}]], {text: 'x\u0007'})
    view.clear()
    await settle()
    const drawn = io.err().replace(/\u001B\[\d+F\u001B\[J/g, '')
    expect(drawn).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/)
    expect(drawn).toContain('run_\\u001b[2J')
    expect(drawn).toContain('ok\\u009b31m\\u000d')
    expect(drawn).toContain('x\\u0007')
  })

  it('never wraps: rows are fitted to the terminal width (flexible columns cut first, then the others, then plain lines)', async () => {
    const io = terminal(30)
    const view = new LiveView(io, MARKED, signals)
    const long = [{text: 'run_with_a_very_long_identifier_0001'}, {text: 'running', paint: (t: string) => `<y>${t}</y>`}]
    view.draw(COLUMNS, [long], {text: 'a footer that is much longer than thirty columns'})
    view.clear()
    await settle()
    const lines = io
      .err()
      .replace(/\u001B\[\d+F\u001B\[J/g, '')
      .split('\n')
      .filter(Boolean)
    for (const line of lines) expect(line.replace(/<\/?\w+>/g, '').length, line).toBeLessThanOrEqual(29)
    expect(lines[1]).toBe('run_with_a_very_lon…  <y>running</y>')

    // narrower: every column is cut (the ID last), colours kept
    const narrow = terminal(12)
    const small = new LiveView(narrow, MARKED, signals)
    small.draw(COLUMNS, [long])
    small.clear()
    await settle()
    const cut = narrow
      .err()
      .replace(/\u001B\[\d+F\u001B\[J/g, '')
      .split('\n')
      .filter(Boolean)
    expect(cut[1]).toBe('run…  <y>runn…</y>')
    for (const line of cut) expect(line.replace(/<\/?\w+>/g, '').length, line).toBeLessThanOrEqual(11)

    // narrower than one character a column and the gutters: plain lines, each cut to the width
    const tiny = terminal(4)
    const smallest = new LiveView(tiny, MARKED, signals)
    smallest.draw(COLUMNS, [long])
    smallest.clear()
    await settle()
    for (const line of tiny
      .err()
      .replace(/\u001B\[\d+F\u001B\[J/g, '')
      .split('\n')
      .filter(Boolean)) {
      expect(line, 'no colour codes in a line cut to the width').not.toMatch(/</)
      expect(line.length).toBeLessThanOrEqual(3)
    }
  })

  it('never grows past the screen: the rows that do not fit are counted', async () => {
    const io = terminal(80, 10)
    const view = new LiveView(io, PLAIN, signals)
    const rows = Array.from({length: 20}, (_, i) => [{text: `run_${i}`}, {text: 'queued'}])
    view.draw(COLUMNS, rows, {text: 'footer'})
    view.draw(COLUMNS, rows.slice(1), {text: 'footer'})
    view.clear()
    await settle()
    const frames = io.err().split(UP_AND_ERASE)
    const first = frames[0].split('\n').filter(Boolean)
    expect(first).toHaveLength(9) // header, 6 rows, "… and 14 more", footer: the cursor line stays on screen
    expect(first.at(-2)).toBe('… and 14 more')
    expect(frames[1]).toBe('9')
  })

  it('is erased at exit if still drawn', async () => {
    const io = terminal()
    const view = new LiveView(io, PLAIN, signals)
    view.draw(COLUMNS, [[{text: 'a'}, {text: 'b'}]])
    expect(signals.exitHandlers()).toBe(1)
    signals.exit()
    await settle()
    expect(io.err().endsWith('\u001B[2F\u001B[J')).toBe(true)
  })
})
