import {describe, expect, it} from 'vitest'
import {Progress} from '../../src/output/progress.js'
import {fakeClock} from '../helpers/fake-clock.js'
import {fakeIO} from '../helpers/fake-io.js'
import {fakeSignals} from '../helpers/fake-signals.js'

const RUNS = {one: 'run', other: 'runs'}

describe('Progress', () => {
  it('writes nothing when stderr is not a TTY', () => {
    const io = fakeIO({stdoutTTY: true, stderrTTY: false})
    const p = new Progress(io, RUNS, fakeClock(), fakeSignals())
    p.update(1)
    p.update(500)
    p.clear()
    expect(io.err()).toBe('')
    expect(io.out()).toBe('')
  })

  it('redraws one line on a TTY stderr, at most every 100 ms of the clock, and clears it at the end', async () => {
    const clock = fakeClock(10_000)
    const io = fakeIO({stdoutTTY: false, stderrTTY: true})
    const p = new Progress(io, RUNS, clock, fakeSignals())
    p.update(100)
    p.update(200) // too soon
    await clock.sleep(150)
    p.update(1300)
    p.clear()
    await new Promise((resolve) => setImmediate(resolve))
    expect(io.err()).toBe('\r\u001B[2Kfetched 100 runs…\r\u001B[2Kfetched 1,300 runs…\r\u001B[2K')
    // nothing on stdout: progress never mixes with data
    expect(io.out()).toBe('')
  })

  it('counts one in the singular', () => {
    const io = fakeIO({stderrTTY: true})
    const p = new Progress(io, {one: 'item', other: 'items'}, fakeClock(0), fakeSignals())
    p.update(1)
    p.clear()
    expect(io.err()).toBe('\r\u001B[2Kfetched 1 item…\r\u001B[2K')
  })

  it('clear() without any update writes nothing', () => {
    const io = fakeIO({stderrTTY: true})
    new Progress(io, RUNS, fakeClock(), fakeSignals()).clear()
    expect(io.err()).toBe('')
  })
})
