import {Errors} from '@oclif/core'
import {runPages} from '../../../api/runs.js'
import {commandResult, type Finished} from '../../../base/results.js'
import type {Run} from '../../../contract/types.js'
import {ExitCode, PAGE_LIMIT} from '../../../contract/vocabulary.js'
import type {HttpClient} from '../../../core/http/client.js'
import type {IO} from '../../../output/io.js'
import type {Renderer} from '../../../output/renderer.js'
import type {Style} from '../../../output/style.js'
import {clock} from '../../../core/clock.js'
import {RUN_COLUMNS} from './columns.js'
import {pollRuns} from './poll.js'
import {EXIT_BY_END, type WatchOptions, type WatchOutcome, watchRuns} from './watch.js'
import {WatchView} from './watch-view.js'

/** Where a wait runs and reports: the API, the organization, the command's streams. */
export interface WaitTarget {
  client: HttpClient
  org: string
  io: IO
  out: Renderer
  errStyle: Style
  /** --verbose: request lines go to stderr, so no live view there */
  verbose: boolean
  /** the command line that watches these runs again, said when Ctrl-C ends the wait */
  again: string
}

/**
 * The wait of `runs watch` and `evals run --wait` (contract 5): polls the organization's run
 * list (the largest page the API allows, then only as far as needed) until the runs finish,
 * showing progress on stderr. Ctrl-C (a SIGINT listener for the duration of the wait, so
 * bin/run.cjs leaves it to us) erases the live view, says how to watch again and exits 130; the
 * runs go on.
 */
export async function waitForRuns(ids: readonly string[], options: WatchOptions, target: WaitTarget): Promise<WatchOutcome> {
  const {client, org, io, out, errStyle} = target
  const unique = [...new Set(ids)]
  const time = clock()
  const listName = `the runs of ${org}`
  const view = new WatchView(io, out, errStyle, {...options, verbose: target.verbose}, () => time.now(), time.now())
  const interrupt = new AbortController()
  const onSigint = (): void => interrupt.abort()
  process.on('SIGINT', onSigint)
  try {
    view.start(unique.length, org)
    const outcome = await watchRuns(unique, options, {
      // from the second poll on, the list answered before: a 404 is that poll's page, not the organization
      poll: (pending, number) =>
        pollRuns(runPages(client, org, {limit: PAGE_LIMIT.max, again: number > 1 ? `at poll ${number}` : undefined}), pending),
      listName,
      clock: time,
      signal: interrupt.signal,
      onPoll: (state, changes) => view.polled(state, changes),
      onTick: (state) => view.tick(state),
    })
    if (outcome.end === 'interrupted') {
      view.clear()
      out.notice(`interrupted: stopped watching; the runs go on. Watch them again with: ${target.again}`)
      throw new Errors.ExitError(ExitCode.interrupted)
    }
    view.finish(outcome)
    return outcome
  } catch (error) {
    view.clear()
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/**
 * The end of a wait for the base to render: the runs in their last known state, in the order
 * given, as `runs list` shows them (table, TSV, or `document` under --json), and the exit code
 * (0 passed, 10 not passed, 11 timed out).
 */
export function waitResult(outcome: WatchOutcome, document: (runs: Run[]) => unknown): Finished<Run> {
  const runs = outcome.state.runs()
  return commandResult({
    kind: 'finished',
    exitCode: EXIT_BY_END[outcome.end],
    document: document(runs),
    list: {items: runs, columns: RUN_COLUMNS},
  })
}
