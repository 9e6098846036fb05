import {afterEach, describe, expect, it, vi} from 'vitest'
import {Progress} from '../../src/output/progress.js'
import {fakeIO} from '../helpers/fake-io.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('Progress', () => {
  it('writes nothing when stderr is not a TTY', () => {
    const io = fakeIO({stdoutTTY: true, stderrTTY: false})
    const p = new Progress(io, (n) => `fetched ${n} runs`)
    p.update(1)
    p.update(500)
    p.clear()
    expect(io.err()).toBe('')
    expect(io.out()).toBe('')
  })

  it('redraws one line on a TTY stderr, at most every 100 ms, and clears it at the end', async () => {
    vi.useFakeTimers({toFake: ['Date']})
    vi.setSystemTime(10_000)
    const io = fakeIO({stdoutTTY: false, stderrTTY: true})
    const p = new Progress(io, (n) => `fetched ${n} runs`)
    p.update(100)
    p.update(200) // too soon
    vi.setSystemTime(10_150)
    p.update(300)
    p.clear()
    await new Promise((resolve) => setImmediate(resolve))
    const err = io.err()
    expect(err).toContain('fetched 100 runs')
    expect(err).not.toContain('fetched 200 runs')
    expect(err).toContain('fetched 300 runs')
    expect(err).not.toContain('\n')
    expect(err.endsWith('\r\u001B[2K')).toBe(true)
    // nothing on stdout: progress never mixes with data
    expect(io.out()).toBe('')
  })

  it('done() without any update writes nothing', () => {
    const io = fakeIO({stderrTTY: true})
    new Progress(io, () => 'x').clear()
    expect(io.err()).toBe('')
  })
})
