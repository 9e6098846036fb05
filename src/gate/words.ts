import {flagDuration} from '../output/time.js'
import type {Decision, GateRule, Judged, NoBaseline, SampleBaseline, Stale} from './rules.js'
import type {BaselineChange, UpdateResult} from './update.js'

/**
 * The gate's sentences for people, said once: what a judgement (./verdict.ts, data) means in
 * words. The stderr summary, the Markdown summary, the JUnit failure message and the `::error`
 * annotation all give these sentences; each output only escapes them for its format.
 */

/** Why a finished run or group is `unfinished`: the time limit cut the search for its baseline short. */
export const NOT_JUDGED = 'not judged: the search for its baseline was cut short by --wait-timeout'

/** Which rule a run or group did not pass, and why in one sentence. */
export interface Shortfall {
  rule: GateRule
  /** one sentence for people: "failed", "scored 0.41 (below 0.5)", "scored 0.61, 0.12 below the mean of …" */
  reason: string
}

/** A judgement with its sentences: what every output renders. */
export interface Judgement extends Judged {
  /** why, in one sentence: for a failure */
  shortfall?: Shortfall
  /** a sentence for the passing verdicts (within noise, improved, flaky, no baseline, stale) */
  note?: string
}

/** Numbers as people read them in reasons: 0.27, not 0.27000000000000002. */
const shown = (n: number): string => String(Number(n.toFixed(6)))
/** Scores in sentences: two decimals. */
export const two = (n: number): string => n.toFixed(2)
/** 0.95 → "95 %", 0.975 → "97.5 %" (as the docs write it) */
export const percent = (c: number): string => `${Number((c * 100).toFixed(2))} %`
const runs = (n: number): string => `run${n === 1 ? '' : 's'}`

/** `mean ± sd (n)`: a history or a group of a baseline file as the table and the summary show it. */
export function historyText(history: Pick<SampleBaseline, 'mean' | 'sd' | 'runs'>): string {
  return `${two(history.mean)} ± ${two(history.sd)} (${history.runs})`
}

/** "the baseline in base.json is stale: its newest run … was created …, more than --baseline-max-age 30d ago" */
export function staleness(stale: Stale): string {
  return `the baseline in ${stale.path} is stale: its newest run of this agent and model was created ${stale.newest}, more than --baseline-max-age ${flagDuration(stale.maxAgeS)} ago`
}

/** Why there is no baseline, after "no baseline: ". */
function missing(why: NoBaseline): string {
  switch (why.kind) {
    case 'history': {
      const within = why.windowS > 0 ? ` within ${flagDuration(why.windowS)}` : ''
      return `${why.found} earlier ${runs(why.found)} of the same eval set, agent and model succeeded with a score${within} (at least 3 needed)`
    }
    case 'file':
      return why.missing
    case 'previous':
      return 'no earlier run of the same eval set, agent and model succeeded with a score'
    case 'stale':
      return staleness(why.stale)
  }
}

/** What a judgement's decision says: the failure's sentence, or the note of a passing verdict (neither: nothing to say). */
function sentence(j: Judged, decision: Decision): {shortfall?: Shortfall; note?: string} {
  const {size, score, k, delta} = j
  const of = size === 1 ? '' : ` (mean of ${k} ${runs(k)})`
  const scored = (n: number) => `scored ${two(n)}${of}`
  switch (decision.rule) {
    case 'status': {
      const statuses = decision.statuses.join(', ')
      const said = size === 1 ? statuses : `${decision.failed} of ${decision.of} runs did not succeed (${statuses})`
      const unknown = decision.unknown ? '; the baseline file records no outcomes (version 1), so no failure rate explains it' : ''
      return {shortfall: {rule: 'status', reason: `${said}${unknown}`}}
    }
    case 'failure-rate': {
      const {failed, of, baseline, p, threshold} = decision
      const rate = `${baseline.failed} of ${baseline.finished} baseline runs failed (${share(baseline.failed, baseline.finished)})`
      const reason = `${failed} of ${of} run${of === 1 ? '' : 's'} failed, beyond its rate: ${rate}, under which ${failed} or more failures in ${of} have a chance of ${chance(p)}, at most ${chance(threshold)} is beyond`
      return {shortfall: {rule: 'status', reason}}
    }
    case 'no-success': {
      const {failed, cancelled, of, state} = decision
      const why = [failed > 0 ? `${failed} failed within its rate` : '', cancelled > 0 ? `${cancelled} cancelled` : '']
        .filter((w) => w !== '')
        .join(', ')
      const none = `no run of ${of} succeeded (${why})`
      if (state === 'relaunch') return {note: `${none}: launched again`}
      const after = `${none}, and no launch is left to decide it`
      if (decision.failInconclusive) return {shortfall: {rule: 'inconclusive', reason: `${after} (--fail-inconclusive)`}}
      return {note: after}
    }
    case 'pending':
    case 'succeeded':
      return {}
    case 'not-judged':
      return {note: NOT_JUDGED}
    case 'min-score': {
      const {minScore} = decision
      if (decision.unscored || score === null)
        return {shortfall: {rule: 'min-score', reason: `succeeded without a score (--min-score ${minScore})`}}
      return {
        shortfall: {rule: 'min-score', reason: size === 1 ? `scored ${score} (below ${minScore})` : `${scored(score)}, below ${minScore}`},
      }
    }
    case 'no-baseline': {
      const text = `no baseline: ${missing(decision.why)}`
      return decision.required ? {shortfall: {rule: 'baseline', reason: `${text} (--require-baseline)`}} : {note: text}
    }
    case 'max-drop': {
      const {against} = decision
      const words = `baseline ${against.runId} (${shown(against.score)}; --max-drop ${decision.maxDrop})`
      if (decision.side === 'within' || decision.maxDrop === null) return {}
      if (decision.side === 'above') return {note: `${shown(delta as number)} above ${words}`}
      if (decision.unscored || score === null || delta === null)
        return {shortfall: {rule: 'max-drop', reason: `succeeded without a score, ${words}`}}
      return {
        shortfall: {rule: 'max-drop', reason: `${size === 1 ? `scored ${shown(score)}` : scored(score)}, ${shown(-delta)} below ${words}`},
      }
    }
    case 'noise':
    case 'sequential': {
      const cited = decision.baseline
      const held = `${cited.runs} ${cited.path === undefined ? `earlier ${runs(cited.runs)}` : `${runs(cited.runs)} in ${cited.path}`}`
      const history = `the mean of ${held} (${two(cited.mean)} ± ${two(cited.sd)})`
      if (decision.rule === 'noise' && (decision.unscored || score === null || delta === null)) {
        return {shortfall: {rule: 'noise', reason: `succeeded without a score, against ${history}`}}
      }
      const gap = `${two(Math.abs(delta as number))} ${(delta as number) < 0 ? 'below' : 'above'} ${history}`
      const atLevel = `noise at ${percent(decision.level)}`
      const judged = `${scored(score as number)}, ${gap}`
      if (decision.rule === 'noise') {
        if (decision.side === 'below') {
          const beyond = decision.bar === 'max-drop' ? `more than --max-drop ${decision.maxDrop}` : `beyond ${atLevel}`
          return {shortfall: {rule: decision.bar, reason: `${judged}: ${beyond}`}}
        }
        return {note: `${judged}: ${decision.side === 'above' ? 'beyond' : 'within'} ${atLevel}`}
      }
      const bound = `the drop's upper bound at ${percent(decision.level)} is ${two(decision.upper)}`
      if (decision.state === 'cleared') return {note: `${judged}: cleared, ${bound}, below --max-drop ${decision.maxDrop}`}
      const open = `${judged}: ${bound}, not below --max-drop ${decision.maxDrop}, and the drop is not beyond ${atLevel}`
      if (decision.state === 'undecided') return {note: `${open}: undecided`}
      const after = `inconclusive after ${decision.looks} launch${decision.looks === 1 ? '' : 'es'} (--max-repeat ${decision.looks})`
      if (decision.failInconclusive) return {shortfall: {rule: 'inconclusive', reason: `${open}: ${after} (--fail-inconclusive)`}}
      return {note: `${open}: ${after}`}
    }
  }
}

/** A share of runs as the sentences give it: "17 %". */
const share = (part: number, whole: number): string => `${whole === 0 ? 0 : Number(((part / whole) * 100).toFixed(1))} %`
/** A probability as the sentences give it: 3 significant digits. */
const chance = (p: number): string => String(Number(p.toPrecision(3)))

/**
 * Why a group judged on its other runs had failed or cancelled ones: within its baseline's rate,
 * or cancelled (which says nothing about the agent).
 */
function failuresNote(j: Judged): string | undefined {
  const outcomes = j.outcomes
  if (!j.flaky) return undefined
  if (outcomes === undefined) return `flaky: ${j.failures} of ${j.size} runs did not succeed; judged on the other ${j.size - j.failures}`
  const parts: string[] = []
  const {failed, cancelled, baseline} = outcomes
  if (failed > 0 && baseline !== null) {
    const p = outcomes.p === null ? '' : `; P(${failed} or more in ${failed + outcomes.succeeded}) = ${chance(outcomes.p)}`
    parts.push(
      `${failed} of ${j.size} failed, within its rate: ${baseline.failed} of ${baseline.finished} baseline runs failed (${share(baseline.failed, baseline.finished)})${p}`,
    )
  }
  if (cancelled > 0) parts.push(`${cancelled} of ${j.size} cancelled (which says nothing about the agent)`)
  return `${parts.join('; ')}; judged on the other ${j.size - j.failures}`
}

/**
 * A judgement in words: its decision's sentence, and the notes beside it — a stale file's (on
 * a comparison with the noise of its runs) and, when it was judged on its other runs, why some
 * failed or were cancelled (on every verdict those runs decided; --min-score's failure says only that).
 */
export function worded(j: Judged): Judgement {
  // (a judgement an earlier look froze is the one it keeps, the same object)
  if (WORDED.has(j)) return j
  const {shortfall, note} = sentence(j, j.decision)
  const judgedByRuns = !['status', 'failure-rate', 'no-success', 'pending', 'not-judged'].includes(j.decision.rule)
  const flaky = judgedByRuns ? failuresNote(j) : undefined
  const stale = j.stale !== undefined && j.decision.rule !== 'min-score' ? staleness(j.stale) : undefined
  const notes = [note, stale, flaky].filter((n) => n !== undefined).join('; ')
  // (assigned, not spread: see ./verdict.ts extend)
  const judgement: Judgement = Object.assign({}, j)
  if (shortfall !== undefined) judgement.shortfall = shortfall
  if (notes !== '') judgement.note = notes
  WORDED.add(judgement)
  return judgement
}

const WORDED = new WeakSet<Judged>()

/**
 * The line that says a step could not see the drop that matters (WatchState.resolution): "this
 * step could only see drops of 0.09 or more; --repeat 4 would see 0.05".
 */
export function resolutionText(hint: {detectable: number; maxDrop: number; repeat: number | null; upTo: number; bar?: 'max-drop'}): string {
  if (hint.bar === 'max-drop') {
    return `--max-drop ${hint.maxDrop} is above the noise margin, so it is the bar: a drop of ${hint.maxDrop} is regressed about half the time, one of ${two(hint.detectable)} four times in five`
  }
  const could = `this step could only see drops of ${two(hint.detectable)} or more`
  if (hint.repeat !== null) return `${could}; --repeat ${hint.repeat} would see ${hint.maxDrop}`
  return `${could}; no --repeat up to ${hint.upTo} would see ${hint.maxDrop} against baselines of so few runs (keep more)`
}

/**
 * The sentence of a change --update-baseline took into a group (./update.ts BaselineChange):
 * "claude-code / claude-sonnet-4-5 moved from 0.84 to 0.77 at run_… (−0.07, 3.5 sd): this update
 * makes it the baseline", "codex / gpt-5 fails 3 of its 30 runs, 0 of 27 before this update: …".
 */
export function changeText(change: BaselineChange): string {
  const makes = 'this update makes it the baseline'
  if (change.kind === 'level') {
    const sign = change.delta < 0 ? '−' : '+'
    const by = `${sign}${two(Math.abs(change.delta))}, ${change.sds.toFixed(1)} sd`
    return `${change.group} moved from ${two(change.from)} to ${two(change.to)} at ${change.runId} (${by}): ${makes}`
  }
  const {before} = change
  return `${change.group} fails ${change.failed} of its ${change.finished} ${runs(change.finished)}, ${before.failed} of ${before.finished} before this update: ${makes}`
}

/**
 * What --update-baseline took in, one plain sentence a group whose level moved or that fails more
 * (server text as it came: each output escapes it for its format): the warning lines of stderr,
 * the `::warning` annotations, the Markdown summary and the Action's `baseline-warnings`.
 */
export function updateWarnings(update: UpdateResult): string[] {
  return update.changes.map(changeText)
}
