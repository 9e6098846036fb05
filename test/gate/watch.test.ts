import {describe, expect, it} from 'vitest'
import type {PollResult} from '../../src/gate/poll.js'
import {exitCodeOf, type FinalOutcome, LAST_POLL_MS, TICK_MS, type WatchHooks, type WatchOptions, watchRuns} from '../../src/gate/watch.js'
import type {Run} from '../../src/contract/types.js'
import {AmctlError} from '../../src/core/errors.js'
import {fakeClock} from '../helpers/fake-clock.js'

const run = (id: string, status: string, score: number | null = null): Run => ({
  id,
  status,
  evalSetId: null,
  batchId: null,
  createdAt: '2026-01-01T00:00:00Z',
  forkedFrom: null,
  agent: null,
  model: null,
  score,
})

const OPTIONS: WatchOptions = {intervalS: 5, timeoutS: 3600, failFast: false}

/**
 * A poll that answers from a script: poll N sees the statuses of `script[N]` (the last one
 * repeats). Records what each poll looked for.
 */
function scripted(script: Array<Record<string, string>>): {poll: WatchHooks['poll']; asked: string[][]} {
  const asked: string[][] = []
  return {
    asked,
    async poll(pending) {
      asked.push([...pending])
      const statuses = script[Math.min(asked.length - 1, script.length - 1)]
      const found = new Map<string, Run>()
      for (const id of pending) {
        if (statuses[id] !== undefined) found.set(id, run(id, statuses[id], statuses[id] === 'succeeded' ? 0.9 : null))
      }
      return {found, missing: [...pending].filter((id) => statuses[id] === undefined), pages: 1} satisfies PollResult
    },
  }
}

describe('watchRuns: the wait loop', () => {
  it('polls at once, then every interval, until every run finished; asks only for the runs not finished', async () => {
    const clock = fakeClock()
    const {poll, asked} = scripted([{a: 'queued', b: 'queued'}, {a: 'running', b: 'succeeded'}, {a: 'succeeded'}])
    const ticks: number[] = []
    const outcome = await watchRuns(['a', 'b'], OPTIONS, {poll, clock, listName: 'the runs of acme', onTick: () => ticks.push(clock.now())})
    expect(outcome).toMatchObject({end: 'passed', polls: 3})
    expect(asked).toEqual([['a', 'b'], ['a', 'b'], ['a']])
    expect(outcome.endedAt - outcome.startedAt).toBe(10_000)
    // the interval is slept in ticks of a second (a live view redraws at each)
    expect(clock.sleeps).toEqual(Array(10).fill(TICK_MS))
    expect(ticks).toHaveLength(10)
  })

  it('hands every poll and its changes to onPoll', async () => {
    const seen: string[] = []
    const {poll} = scripted([{a: 'queued'}, {a: 'queued'}, {a: 'failed'}])
    const outcome = await watchRuns(['a'], OPTIONS, {
      poll,
      clock: fakeClock(),
      listName: 'x',
      onPoll: (_state, changes) => seen.push(changes.map((c) => `${c.from ?? '∅'}→${c.to}`).join(',')),
    })
    expect(outcome.end).toBe('not-passed')
    expect(seen).toEqual(['∅→queued', '', 'queued→failed'])
  })

  it('the time limit: a last poll when it comes, then "timeout" with the last known states', async () => {
    const clock = fakeClock()
    const {poll, asked} = scripted([{a: 'queued', b: 'succeeded'}, {a: 'running'}])
    const outcome = await watchRuns(['a', 'b'], {...OPTIONS, timeoutS: 12}, {poll, clock, listName: 'x'})
    expect(outcome.end).toBe('timeout')
    expect(asked).toHaveLength(4) // at 0, 5, 10 and 12 s
    expect(outcome.endedAt - outcome.startedAt).toBe(12_000)
    expect(outcome.state.runs().map((r) => r.status)).toEqual(['running', 'succeeded'])
  })

  it('a verdict at the last poll wins over the time limit', async () => {
    const {poll} = scripted([{a: 'queued'}, {a: 'succeeded'}])
    const outcome = await watchRuns(['a'], {...OPTIONS, timeoutS: 5}, {poll, clock: fakeClock(), listName: 'x'})
    expect(outcome.end).toBe('passed')
  })

  it('--wait-timeout 0 waits without a limit', async () => {
    const script = [...Array(40).fill({a: 'running'}), {a: 'succeeded'}]
    const {poll, asked} = scripted(script)
    const outcome = await watchRuns(['a'], {...OPTIONS, timeoutS: 0, intervalS: 3600}, {poll, clock: fakeClock(), listName: 'x'})
    expect(outcome.end).toBe('passed')
    expect(asked).toHaveLength(41) // 40 hours of polls
  })

  it('--fail-fast ends at the first failed run while others still run', async () => {
    const {poll, asked} = scripted([{a: 'running', b: 'running'}, {a: 'cancelled', b: 'running'}, {b: 'succeeded'}])
    const outcome = await watchRuns(['a', 'b'], {...OPTIONS, failFast: true}, {poll, clock: fakeClock(), listName: 'x'})
    expect(outcome.end).toBe('not-passed')
    expect(asked).toHaveLength(2)
  })

  it('--min-score makes a low score a failure', async () => {
    const {poll} = scripted([{a: 'succeeded'}]) // score 0.9
    expect((await watchRuns(['a'], {...OPTIONS, minScore: 0.95}, {poll, clock: fakeClock(), listName: 'x'})).end).toBe('not-passed')
    expect((await watchRuns(['a'], {...OPTIONS, minScore: 0.9}, {poll, clock: fakeClock(), listName: 'x'})).end).toBe('passed')
  })

  it('a duplicated ID is watched once', async () => {
    const {poll, asked} = scripted([{a: 'succeeded'}])
    const outcome = await watchRuns(['a', 'a'], OPTIONS, {poll, clock: fakeClock(), listName: 'x'})
    expect(asked).toEqual([['a']])
    expect(outcome.state.runs()).toHaveLength(1)
  })

  it('a run missing from the whole list ends the wait: not_found, exit 5, naming it', async () => {
    const {poll} = scripted([{a: 'queued'}])
    const hooks = {poll, clock: fakeClock(), listName: 'the runs of acme'}
    const error = await watchRuns(['a', 'ghost'], OPTIONS, hooks).catch((e: unknown) => e)
    expect(error).toMatchObject({code: 'not_found', exitCode: 5, message: 'run "ghost" is not among the runs of acme'})
    const {poll: later} = scripted([{a: 'queued', b: 'queued'}, {}])
    const gone = await watchRuns(['a', 'b'], OPTIONS, {poll: later, clock: fakeClock(), listName: 'x'}).catch((e: unknown) => e)
    expect((gone as AmctlError).message).toBe('runs "a", "b" are not among x')
  })

  it('an error of a poll ends the wait with that error (its own exit code)', async () => {
    let polls = 0
    const failing: WatchHooks['poll'] = async (pending) => {
      if (++polls === 3) throw new AmctlError('rate limited', {code: 'rate_limited', status: 429})
      return {found: new Map([...pending].map((id) => [id, run(id, 'running')])), missing: [], pages: 1}
    }
    const error = await watchRuns(['a'], OPTIONS, {poll: failing, clock: fakeClock(), listName: 'x'}).catch((e: unknown) => e)
    expect(error).toMatchObject({code: 'rate_limited', exitCode: 7})
  })

  it('Ctrl-C while sleeping ends the wait as "interrupted", without another poll', async () => {
    const clock = fakeClock()
    const interrupt = new AbortController()
    clock.onSleep = (n) => n === 7 && interrupt.abort()
    const {poll, asked} = scripted([{a: 'queued'}])
    const outcome = await watchRuns(['a'], OPTIONS, {poll, clock, listName: 'x', signal: interrupt.signal})
    expect(outcome.end).toBe('interrupted')
    expect(outcome.signal, 'an abort that names no signal is Ctrl-C').toBe('SIGINT')
    expect(asked).toHaveLength(2) // at 0 and 5 s; interrupted at the 7th second
  })

  it('SIGTERM (the abort names it) ends the wait as Ctrl-C does, the outcome naming SIGTERM', async () => {
    const clock = fakeClock()
    const interrupt = new AbortController()
    clock.onSleep = (n) => n === 7 && interrupt.abort('SIGTERM')
    const {poll, asked} = scripted([{a: 'queued'}])
    const outcome = await watchRuns(['a'], OPTIONS, {poll, clock, listName: 'x', signal: interrupt.signal})
    expect(outcome).toMatchObject({end: 'interrupted', signal: 'SIGTERM'})
    expect(asked).toHaveLength(2)
  })

  it('Ctrl-C during a poll that hangs ends the wait at once', async () => {
    const interrupt = new AbortController()
    const hanging: WatchHooks['poll'] = () => {
      setImmediate(() => interrupt.abort())
      return new Promise(() => {})
    }
    const outcome = await watchRuns(['a'], OPTIONS, {poll: hanging, clock: fakeClock(), listName: 'x', signal: interrupt.signal})
    expect(outcome).toMatchObject({end: 'interrupted', polls: 0})
  })

  it('a poll that fails after Ctrl-C abandoned it raises nothing', async () => {
    const interrupt = new AbortController()
    const failingLate: WatchHooks['poll'] = () =>
      new Promise((_resolve, reject) => {
        interrupt.abort()
        setImmediate(() => reject(new Error('socket destroyed')))
      })
    const outcome = await watchRuns(['a'], OPTIONS, {poll: failingLate, clock: fakeClock(), listName: 'x', signal: interrupt.signal})
    expect(outcome.end).toBe('interrupted')
    await new Promise((resolve) => setImmediate(resolve)) // an unhandled rejection would fail the run
  })

  it("exit codes by end (contract 1.5; SIGTERM 143, amctl's choice)", async () => {
    const base = await watchRuns(['a'], OPTIONS, {poll: scripted([{a: 'succeeded'}]).poll, clock: fakeClock(), listName: 'x'})
    const as = (end: FinalOutcome['end'], signal?: 'SIGINT' | 'SIGTERM') => exitCodeOf({...base, end, signal})
    expect([as('passed'), as('not-passed'), as('timeout'), as('interrupted', 'SIGINT'), as('interrupted', 'SIGTERM')]).toEqual([
      0, 10, 11, 130, 143,
    ])
    expect(as('interrupted'), 'an interruption that names no signal is Ctrl-C').toBe(130)
  })
})

describe('watchRuns: the baselines of --baseline previous', () => {
  const previous = {kind: 'previous', windowS: 86_400} as const

  it('looked up once, after the first poll found every run and before the first verdict', async () => {
    const {poll} = scripted([
      {a: 'succeeded', b: 'running'},
      {a: 'succeeded', b: 'succeeded'},
    ])
    const calls: string[][] = []
    const outcome = await watchRuns(
      ['a', 'b'],
      {...OPTIONS, baseline: previous, maxDrop: 0.1},
      {
        poll,
        clock: fakeClock(),
        listName: 'the runs of acme',
        async baselines(state) {
          calls.push(state.runs().map((r) => r.id))
          return {found: new Map([['a', {runId: 'base', score: 1}]])}
        },
      },
    )
    expect(calls).toEqual([['a', 'b']])
    // a scored 0.9 (the scripted score), 0.1 below its baseline: exactly --max-drop passes
    expect(outcome.end).toBe('passed')
    expect(outcome.state.groups().map((g) => g.baseline)).toEqual([{runId: 'base', score: 1}, null])
  })

  it('a drop beyond --max-drop ends the wait like a failed run (exit 10)', async () => {
    const {poll} = scripted([{a: 'succeeded'}])
    const outcome = await watchRuns(
      ['a'],
      {...OPTIONS, baseline: previous, maxDrop: 0.05},
      {
        poll,
        clock: fakeClock(),
        listName: 'the runs of acme',
        baselines: async () => ({found: new Map([['a', {runId: 'base', score: 1}]])}),
      },
    )
    expect(outcome.end).toBe('not-passed')
    expect(exitCodeOf(outcome as FinalOutcome)).toBe(10)
  })

  it('Ctrl-C during the lookup ends the wait at once as interrupted', async () => {
    const {poll} = scripted([{a: 'running'}])
    const abort = new AbortController()
    const outcome = await watchRuns(
      ['a'],
      {...OPTIONS, baseline: previous},
      {
        poll,
        clock: fakeClock(),
        listName: 'the runs of acme',
        signal: abort.signal,
        baselines: () => {
          setImmediate(() => abort.abort())
          return new Promise(() => {}) // never answers
        },
      },
    )
    // Ctrl-C, not the time limit (issue 32 item 4): nothing was cut
    expect(outcome.end).toBe('interrupted')
    expect(outcome.cut).toBeUndefined()
  })
})

describe('watchRuns: --wait-timeout bounds the whole wait, the search for baselines included (issue 32 item 4)', () => {
  const previous = {kind: 'previous', windowS: 0} as const
  /** A search (or a poll) whose pages never end: each page takes a second of the clock, until the signal aborts. */
  const endless = (clock: ReturnType<typeof fakeClock>, seen: {pages: number}) => async (signal: AbortSignal) => {
    while (!signal.aborted) {
      seen.pages++
      await clock.sleep(1000)
    }
    throw signal.reason
  }

  it('a search for baselines whose pages never end is cut off at the limit: "timeout", cut "baselines", the run not judged', async () => {
    const clock = fakeClock()
    const {poll} = scripted([{a: 'succeeded'}])
    const seen = {pages: 0}
    const search = endless(clock, seen)
    const outcome = await watchRuns(
      ['a'],
      {...OPTIONS, timeoutS: 5, baseline: previous},
      {
        poll,
        clock,
        listName: 'x',
        baselines: (_state, signal) => search(signal).then(() => ({found: new Map()})),
      },
    )
    expect(outcome).toMatchObject({end: 'timeout', cut: 'baselines', polls: 1})
    expect(outcome.endedAt - outcome.startedAt).toBe(5000)
    expect(seen.pages).toBe(5)
    // finished, but never compared with a baseline: unfinished, not "no baseline" and not passed
    const [group] = outcome.state.groups()
    expect(group.baseline).toBeUndefined()
    expect(outcome.state.judge(group)).toMatchObject({verdict: 'unfinished', decided: false, fails: false})
    expect(outcome.state.runVerdict(outcome.state.entries()[0])).toBe('unfinished')
  })

  it('--min-score still judges a run whose baseline search was cut short; a failed run stays failed', async () => {
    const clock = fakeClock()
    const {poll} = scripted([{a: 'succeeded', b: 'failed'}])
    const search = endless(clock, {pages: 0})
    const outcome = await watchRuns(
      ['a', 'b'],
      {...OPTIONS, timeoutS: 3, baseline: previous, minScore: 0.95},
      {
        poll,
        clock,
        listName: 'x',
        baselines: (_state, signal) => search(signal).then(() => ({found: new Map()})),
      },
    )
    expect(outcome).toMatchObject({end: 'timeout', cut: 'baselines'})
    expect(outcome.state.entries().map((w) => outcome.state.runVerdict(w))).toEqual(['below-min-score', 'failed'])
  })

  it('a poll whose pages never end (a run the list never reaches) is cut off at the limit too', async () => {
    const clock = fakeClock()
    const seen = {pages: 0}
    const pages = endless(clock, seen)
    const outcome = await watchRuns(
      ['a'],
      {...OPTIONS, timeoutS: 7},
      {
        poll: (_pending, _n, signal) => pages(signal).then(() => ({found: new Map(), missing: [], pages: 0})),
        clock,
        listName: 'x',
      },
    )
    expect(outcome).toMatchObject({end: 'timeout', cut: 'poll', polls: 0})
    expect(outcome.endedAt - outcome.startedAt).toBe(7000)
  })

  it('the last poll, made when the limit comes between polls, is given LAST_POLL_MS of its own', async () => {
    const clock = fakeClock()
    const seen = {pages: 0}
    const pages = endless(clock, seen)
    let polls = 0
    const outcome = await watchRuns(
      ['a'],
      {...OPTIONS, timeoutS: 10},
      {
        poll: async (pending, _n, signal) => {
          if (++polls < 3) return {found: new Map([['a', run('a', 'running')]]), missing: [], pages: 1}
          return pages(signal).then(() => ({found: new Map(), missing: [...pending], pages: 0}))
        },
        clock,
        listName: 'x',
      },
    )
    // polls at 0 and 5 s, then the last one at the limit, 10 s, cut LAST_POLL_MS later
    expect(outcome).toMatchObject({end: 'timeout', cut: 'poll', polls: 2})
    expect(outcome.endedAt - outcome.startedAt).toBe(10_000 + LAST_POLL_MS)
    expect(outcome.state.runs().map((r) => r.status)).toEqual(['running'])
  })
})
