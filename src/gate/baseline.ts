import type {Run} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import {AmctlError, ExitCode} from '../core/errors.js'
import {createdMs, newestUntil} from './filter.js'
import {type Baseline, statusText} from './state.js'

/**
 * The baselines of the regression gate (`--baseline`, `--max-drop`).
 *
 * `--baseline previous`: for each watched run, the most recent run created before it (by
 * `createdAt`) with the same eval set, agent and model that succeeded with a score. Found in ONE
 * newest-first scan of the organization's run list (the mechanism of `runs list --since`,
 * ./filter.ts), which stops as soon as every watched run has its baseline, or at the first page
 * that reaches runs older than the oldest watched run's `createdAt` minus `--baseline-window`.
 * Watched runs are never each other's baselines. A run without one is "no baseline": not held to
 * --max-drop.
 */

/** Whether `candidate` can be `run`'s baseline: like it, earlier, within the window, succeeded with a score. */
function canBaseline(candidate: Run, run: Run, runAt: number, windowMs: number): boolean {
  if (candidate.status !== 'succeeded' || typeof candidate.score !== 'number') return false
  if (candidate.evalSetId !== run.evalSetId || candidate.agent !== run.agent || candidate.model !== run.model) return false
  const at = createdMs(candidate)
  return at !== undefined && at < runAt && (windowMs === 0 || at >= runAt - windowMs)
}

/**
 * `--baseline previous` for `watched` (their last known state: each needs its `createdAt`),
 * reading `pages` (newest first, one request per page) no further than needed. `windowS` 0 =
 * no limit. Returns the baselines found, by watched run ID.
 */
export async function findBaselines(
  pages: AsyncIterable<Page<Run>>,
  watched: readonly Run[],
  windowS: number,
): Promise<Map<string, Baseline>> {
  const found = new Map<string, Baseline>()
  const windowMs = windowS * 1000
  const ids = new Set(watched.map((run) => run.id))
  // each watched run with a createdAt to look before (one without cannot have a baseline)
  const pending = new Map<string, {run: Run; at: number}>()
  for (const run of watched) {
    const at = createdMs(run)
    if (at !== undefined) pending.set(run.id, {run, at})
  }
  if (pending.size === 0) return found
  const oldest = Math.min(...[...pending.values()].map((p) => p.at))
  for await (const page of newestUntil(pages, windowMs === 0 ? undefined : oldest - windowMs)) {
    for (const candidate of page.items) {
      if (ids.has(candidate.id)) continue
      for (const [id, {run, at}] of pending) {
        if (!canBaseline(candidate, run, at, windowMs)) continue
        // newest first: the first that fits is the most recent
        found.set(id, {runId: candidate.id, score: candidate.score as number})
        pending.delete(id)
      }
    }
    if (pending.size === 0) break
  }
  return found
}

/**
 * `--baseline RUN_ID`: that run, found by reading the list from the newest (the API has no
 * GET of one run). Exit 5 when the whole list does not hold it; exit 2 when it did not succeed
 * with a score (nothing to compare with).
 */
export async function findBaselineRun(pages: AsyncIterable<Page<Run>>, runId: string, listName: string): Promise<Baseline> {
  for await (const page of newestUntil(pages, undefined)) {
    const run = page.items.find((item) => item.id === runId)
    if (run === undefined) continue
    if (run.status !== 'succeeded' || typeof run.score !== 'number') {
      const state = run.status === 'succeeded' ? 'it succeeded without a score' : `its status is ${statusText(run)}`
      throw new AmctlError(`--baseline ${runId} cannot be a baseline: ${state}; a baseline is a run that succeeded with a score`, {
        code: 'invalid_request',
        exitCode: ExitCode.usage,
      })
    }
    return {runId, score: run.score}
  }
  throw new AmctlError(`--baseline: run "${runId}" is not among ${listName}`, {code: 'not_found', exitCode: ExitCode.notFound})
}
