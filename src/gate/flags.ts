import {Flags} from '@oclif/core'
import {CONTROL_CHARACTER, isLoopbackHost} from '../contract/vocabulary.js'
import {UsageError} from '../core/errors.js'
import {closest} from '../base/fallback.js'
import {parseDuration, parseIntegerInRange, parseNumberInRange, requireId} from '../input/values.js'
import {shellLine} from '../output/shell.js'
import {readBaselineFile} from './baseline-file.js'
import {HISTORY_BASELINE, PREVIOUS} from './baseline-words.js'
import {FILE, HISTORY} from './stats.js'
import type {WatchOptions} from './watch.js'

/** Defaults and bounds of the wait flags (contract 5) and of the regression gate. */
export const WATCH_DEFAULTS = {intervalS: 5, minIntervalS: 1, maxIntervalS: 86_400, timeout: '60m', baselineWindow: '30d'} as const

/** `evals run --repeat K|auto`: the bounds of K, and `--max-repeat`'s default. */
export const REPEAT = {min: 1, max: 20, auto: 'auto', defaultMaxRepeat: 5} as const

/**
 * `evals run --wait --relaunches N`: how many launches a step may add for groups none of whose
 * runs succeeded and whose failures are within their rate (docs/ci.md "Failed and cancelled
 * runs"): at most `max`; by default 4 with a baseline of many runs, so that a step makes at most
 * as many launches as --repeat auto's default --max-repeat (docs/gate-measurements.md: an
 * unchanged step of one flaky agent makes about 1.2 launches, and an agent that fails every run
 * is failed whatever its file's rate, in 3 launches or, against a file where it fails often, 4 or
 * 5), and none without one (a failure fails the step at once).
 */
export const RELAUNCH = {default: 4, max: 10} as const

/** How many launches `evals run --wait` makes: K and up to N relaunches, or (`--repeat auto`) one at a time until every group is decided. */
export type RepeatPlan = {kind: 'fixed'; k: number; relaunches: number} | {kind: 'auto'; maxRepeat: number}

/**
 * `--repeat K|auto`, `--max-repeat K`, `--relaunches N` (exit 2 before anything is sent). `auto`
 * judges as it goes, so it needs the wait, a baseline of many runs (history or a file) and
 * `--max-drop D > 0`: the drop that matters, which a group is cleared of. Relaunches need a
 * baseline of many runs too: without its failure rate, nothing explains a failure.
 */
export function parseRepeat(
  flags: {repeat?: string; 'max-repeat'?: string; relaunches?: string},
  options: WatchOptions | undefined,
): RepeatPlan {
  const value = flags.repeat?.trim()
  const kind = options?.baseline?.kind
  const manyRuns = kind === 'history' || kind === 'file'
  if (value !== REPEAT.auto) {
    if (flags['max-repeat'] !== undefined) throw new UsageError('--max-repeat acts only with --repeat auto')
    if (value !== undefined && !/^[+-]?\d+$/.test(value)) {
      throw new UsageError(`--repeat must be a whole number from ${REPEAT.min} to ${REPEAT.max} or auto, got "${flags.repeat}"`)
    }
    if (flags.relaunches !== undefined && !manyRuns) {
      throw new UsageError(
        '--relaunches acts only with --baseline history or --baseline-file: without the failure rate of a baseline of many runs, a failed run fails the step',
      )
    }
    const k = value === undefined ? 1 : parseIntegerInRange('--repeat', value, REPEAT.min, REPEAT.max)
    const relaunches =
      flags.relaunches === undefined
        ? manyRuns
          ? RELAUNCH.default
          : 0
        : parseIntegerInRange('--relaunches', flags.relaunches, 0, RELAUNCH.max)
    return {kind: 'fixed', k, relaunches}
  }
  if (flags.relaunches !== undefined) {
    throw new UsageError(
      '--relaunches acts only without --repeat auto, which launches again while a group is undecided, up to --max-repeat',
    )
  }
  if (!manyRuns) {
    throw new UsageError(
      '--repeat auto judges after each launch against a baseline of many runs: give --baseline history or --baseline-file',
    )
  }
  if ((options?.maxDrop === undefined || options.maxDrop <= 0) && !(options?.maxDropSd !== undefined && options.maxDropSd > 0)) {
    throw new UsageError(
      '--repeat auto needs --max-drop D > 0, the smallest drop that matters: a group is cleared once a drop of D is ruled out (e.g. --max-drop 0.05, or --max-drop 3sd)',
    )
  }
  const maxRepeat =
    flags['max-repeat'] === undefined
      ? REPEAT.defaultMaxRepeat
      : parseIntegerInRange('--max-repeat', flags['max-repeat'], REPEAT.min, REPEAT.max)
  return {kind: 'auto', maxRepeat}
}

/** The environment variable that gives --run-url's default (for CI: set once for every step). */
export const RUN_URL_ENV = 'AMCTL_RUN_URL'

const WAIT = 'WAIT'
const REPORT = 'REPORT'
const {minIntervalS, maxIntervalS} = WATCH_DEFAULTS

/** The flags of a wait, defined once: `runs watch` and `evals run --wait`. */
export const watchFlags = {
  interval: Flags.string({
    description: `seconds between polls, ${minIntervalS}–${maxIntervalS} (default ${WATCH_DEFAULTS.intervalS})`,
    helpValue: 'SECONDS',
    helpGroup: WAIT,
  }),
  'wait-timeout': Flags.string({
    description: `stop waiting after 90s, 15m, 2h or N seconds, the search for baselines included; 0 = no limit (default ${WATCH_DEFAULTS.timeout}); exit 11`,
    helpValue: 'DURATION',
    helpGroup: WAIT,
  }),
  'fail-fast': Flags.boolean({
    description: 'stop at the first run that failed, was cancelled or missed --min-score or --max-drop',
    helpGroup: WAIT,
  }),
  'min-score': Flags.string({
    description: 'a succeeded run also needs a score of at least X, 0–1 (a run without a score fails)',
    helpValue: 'X',
    helpGroup: WAIT,
  }),
  baseline: Flags.string({
    description:
      'compare each run with a baseline: history (the earlier runs of the same eval set, agent and model: regression or noise, at --confidence; recommended), previous (the newest such run) or a RUN_ID for all',
    helpValue: 'history|previous|RUN_ID',
    helpGroup: WAIT,
  }),
  'baseline-file': Flags.string({
    description:
      'judge each run or group against its runs in this baseline file (made by `evals baseline save`) with the statistics of --baseline history; no history scan. Not with --baseline',
    helpValue: 'PATH',
    helpGroup: WAIT,
  }),
  'baseline-max-age': Flags.string({
    description: `--baseline-file: a group whose newest run is older is stale (a warning; fails under --require-baseline): 12h, 30d; 0 = never (default ${FILE.defaultMaxAge})`,
    helpValue: 'DURATION',
    helpGroup: WAIT,
  }),
  'update-baseline': Flags.boolean({
    description:
      "--baseline-file, on the default branch: after the verdict, add the step's succeeded, scored runs to the file (each group keeps its newest runs), whatever the verdict; warns of a group whose level moved or that fails more",
    helpGroup: WAIT,
  }),
  'baseline-window': Flags.string({
    description: `--baseline history|previous looks this far back from each run: 90m, 12h, 30d; 0 = no limit (default ${WATCH_DEFAULTS.baselineWindow})`,
    helpValue: 'DURATION',
    helpGroup: WAIT,
  }),
  'baseline-runs': Flags.string({
    description: `--baseline history: the newest N earlier runs, ${HISTORY.minRuns}–${HISTORY.maxRuns} (default ${HISTORY.defaultRuns}); fewer than ${HISTORY.minRuns} is no baseline`,
    helpValue: 'N',
    helpGroup: WAIT,
  }),
  confidence: Flags.string({
    description: `--baseline history and --baseline-file: ${HISTORY.minConfidence}–${HISTORY.maxConfidence} (default ${HISTORY.defaultConfidence}); a step whose agents did not change fails at most 1 − C of the time (the false-alarm rate of the whole step: 5 % at 0.95)`,
    helpValue: 'C',
    helpGroup: WAIT,
  }),
  'require-baseline': Flags.boolean({
    description:
      'with --baseline or --baseline-file: a run (or group) without a baseline (or with a stale one) fails instead of passing unjudged',
    helpGroup: WAIT,
  }),
  'max-drop': Flags.string({
    description:
      "with --baseline: the smallest drop below the baseline that fails, 0–1 (previous, RUN_ID: the rule; history, a file: the bar with the noise margin, default 0), or with history or a file Nsd, N times each group's own sd (3sd)",
    helpValue: 'X|Nsd',
    helpGroup: WAIT,
  }),
  'fail-inconclusive': Flags.boolean({
    description:
      'with --baseline history or --baseline-file: a group still undecided when no launch can decide it (--repeat auto at --max-repeat, or no run succeeded) fails the step (exit 10) instead of a warning',
    helpGroup: WAIT,
  }),
  junit: Flags.string({
    description: 'write a JUnit XML report here (one testsuite per eval set, one testcase per run), whatever the end',
    helpValue: 'PATH',
    helpGroup: REPORT,
  }),
  summary: Flags.string({
    description: 'write a Markdown summary here (verdict, a table of the runs, the failures), whatever the end',
    helpValue: 'PATH',
    helpGroup: REPORT,
  }),
  html: Flags.string({
    description:
      'write an HTML report here (a chart per agent and model against its baseline, a table of the runs; one self-contained file), whatever the end',
    helpValue: 'PATH',
    helpGroup: REPORT,
  }),
  'run-url': Flags.string({
    description: `--html: link each run ID to its page, {id} standing for the ID (https://app.example.com/runs/{id}); default $${RUN_URL_ENV}`,
    helpValue: 'TEMPLATE',
    helpGroup: REPORT,
  }),
  'ci-annotations': Flags.boolean({
    description:
      'in GitHub Actions (GITHUB_ACTIONS=true): the summary in $GITHUB_STEP_SUMMARY and an ::error line per failing run (default on there)',
    allowNo: true,
    helpGroup: REPORT,
  }),
}

export type WatchFlagValues = {
  interval?: string
  'wait-timeout'?: string
  'fail-fast'?: boolean
  'min-score'?: string
  baseline?: string
  'baseline-file'?: string
  'baseline-max-age'?: string
  'update-baseline'?: boolean
  'baseline-window'?: string
  'baseline-runs'?: string
  confidence?: string
  'require-baseline'?: boolean
  'max-drop'?: string
  'fail-inconclusive'?: boolean
  junit?: string
  summary?: string
  html?: string
  'run-url'?: string
  'ci-annotations'?: boolean
}
type ServerFlagValues = {profile?: string; 'base-url'?: string}

/** The wait flags, checked: how to wait and gate, the baseline run to find first, where to report. */
export interface WaitPlan {
  options: WatchOptions
  /** --baseline RUN_ID: looked up before anything is launched or waited for */
  baselineRunId?: string
  reports: ReportTargets
}

/** Where the reports of a wait go. */
export interface ReportTargets {
  junit?: string
  summary?: string
  /** --html: the HTML report (./reports/html.ts) */
  html?: string
  /** --run-url or $AMCTL_RUN_URL: a run's page, `{id}` its ID (only with --html) */
  runUrl?: string
  /** GitHub Actions annotations and step summary: --[no-]ci-annotations, else GITHUB_ACTIONS=true */
  annotations: boolean
}

/**
 * The wait flags, checked (exit 2 before any request); `env` says whether this is GitHub Actions,
 * `now` (epoch ms, the world's wall clock) is when a baseline file is read (its dates must not be
 * in the future).
 */
export function parseWatchOptions(flags: WatchFlagValues, env: NodeJS.ProcessEnv, now: number): WaitPlan {
  const seconds = `a number of seconds from ${minIntervalS} to ${maxIntervalS}`
  const {interval} = flags
  const baseline = baselineKind(flags.baseline)
  const minScore = flags['min-score']
  const maxDrop = flags['max-drop']
  const window = flags['baseline-window']
  const filePath = flags['baseline-file']
  if (filePath !== undefined && baseline !== undefined) {
    throw new UsageError('--baseline-file and --baseline are two baselines: give one (the file, on pull requests)')
  }
  if (filePath === undefined) {
    const lone = (['baseline-max-age', 'update-baseline'] as const).find((name) => flags[name] !== undefined && flags[name] !== false)
    if (lone !== undefined) throw new UsageError(`--${lone} acts only with --baseline-file`)
  }
  if (baseline === undefined && filePath === undefined) {
    const lone = (['max-drop', 'require-baseline'] as const).find((name) => flags[name] !== undefined && flags[name] !== false)
    if (lone !== undefined) throw new UsageError(`--${lone} acts only with --baseline (history, previous or a RUN_ID) or --baseline-file`)
  }
  if (flags['fail-inconclusive'] && baseline?.kind !== 'history' && filePath === undefined) {
    throw new UsageError('--fail-inconclusive acts only with --baseline history or --baseline-file')
  }
  if (baseline?.kind !== 'history') {
    if (flags['baseline-runs'] !== undefined) {
      throw new UsageError(
        `--baseline-runs acts only with --baseline history${filePath === undefined ? '' : ' (a baseline file keeps the runs it was saved with)'}`,
      )
    }
    if (flags.confidence !== undefined && filePath === undefined)
      throw new UsageError('--confidence acts only with --baseline history or --baseline-file')
  }
  if ((baseline === undefined || baseline.kind === 'run') && window !== undefined)
    throw new UsageError('--baseline-window acts only with --baseline history or previous')
  const options: WatchOptions = {
    intervalS:
      interval === undefined ? WATCH_DEFAULTS.intervalS : parseNumberInRange('--interval', interval, minIntervalS, maxIntervalS, seconds),
    timeoutS: parseDuration('--wait-timeout', flags['wait-timeout'] ?? WATCH_DEFAULTS.timeout),
    failFast: flags['fail-fast'] ?? false,
    minScore: minScore === undefined ? undefined : parseNumberInRange('--min-score', minScore, 0, 1, 'a score from 0 to 1'),
    ...parseMaxDrop(maxDrop, baseline?.kind === 'history' || filePath !== undefined),
    requireBaseline: flags['require-baseline'] ?? false,
    failInconclusive: flags['fail-inconclusive'] ?? false,
  }
  let baselineRunId: string | undefined
  const windowS = () => parseDuration('--baseline-window', window ?? WATCH_DEFAULTS.baselineWindow, {days: true})
  if (baseline?.kind === 'previous') {
    options.baseline = {kind: 'previous', windowS: windowS()}
  } else if (baseline?.kind === 'history') {
    const runs = flags['baseline-runs']
    options.baseline = {
      kind: 'history',
      windowS: windowS(),
      runs: runs === undefined ? HISTORY.defaultRuns : parseIntegerInRange('--baseline-runs', runs, HISTORY.minRuns, HISTORY.maxRuns),
      confidence: parseConfidence(flags.confidence),
    }
  } else if (filePath !== undefined) {
    const path = requirePath('--baseline-file', filePath)
    const maxAgeS = parseDuration('--baseline-max-age', flags['baseline-max-age'] ?? FILE.defaultMaxAge, {days: true})
    const update = flags['update-baseline'] ?? false
    // read and checked now: a file that is not valid is exit 2 before any request
    const {file, outcomes, source} = readBaselineFile(path, now, path)
    options.baseline = {kind: 'file', path, file, outcomes, source, maxAgeS, update, confidence: parseConfidence(flags.confidence)}
  } else if (baseline?.kind === 'run') {
    baselineRunId = baseline.runId
  }
  const junit = flags.junit === undefined ? undefined : requirePath('--junit', flags.junit)
  const summary = flags.summary === undefined ? undefined : requirePath('--summary', flags.summary)
  const html = flags.html === undefined ? undefined : requirePath('--html', flags.html)
  const runUrl = reportRunUrl(html !== undefined, flags['run-url'], env)
  const annotations = flags['ci-annotations'] ?? env.GITHUB_ACTIONS === 'true'
  return {
    options,
    baselineRunId,
    reports: {junit, summary, ...(html === undefined ? {} : {html}), ...(runUrl === undefined ? {} : {runUrl}), annotations},
  }
}

/**
 * `--max-drop X` (0–1), or with a baseline of many runs `--max-drop Nsd`: N times each group's own
 * baseline sd (0–10), so that one flag is the same bar for a quiet agent and a noisy one.
 */
function parseMaxDrop(value: string | undefined, manyRuns: boolean): Pick<WatchOptions, 'maxDrop' | 'maxDropSd'> {
  if (value === undefined) return {maxDrop: undefined}
  const sd = /^\s*(.+?)\s*sd\s*$/i.exec(value)
  if (sd === null)
    return {maxDrop: parseNumberInRange('--max-drop', value, 0, 1, 'a score difference from 0 to 1, or a multiple of the sd such as 3sd')}
  if (!manyRuns)
    throw new UsageError(`--max-drop ${value}: a multiple of the sd needs a baseline of many runs (--baseline history or --baseline-file)`)
  return {maxDropSd: parseNumberInRange('--max-drop', sd[1], 0, 10, 'a multiple of the sd from 0 to 10, such as 3sd')}
}

/** `--confidence` (the gate's, and `evals stats`'): HISTORY's bounds and default when not given; exit 2 outside them. */
export function parseConfidence(value: string | undefined): number {
  const {minConfidence, maxConfidence} = HISTORY
  if (value === undefined) return HISTORY.defaultConfidence
  return parseNumberInRange('--confidence', value, minConfidence, maxConfidence, `a confidence from ${minConfidence} to ${maxConfidence}`)
}

/**
 * `--baseline`: history, previous, or a run ID. A near miss of a keyword (`prev`, `History`,
 * `previus`) is exit 2 with "did you mean", not a run ID looked up and not found (exit 5).
 */
function baselineKind(value: string | undefined): {kind: 'history' | 'previous'} | {kind: 'run'; runId: string} | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === PREVIOUS || text === HISTORY_BASELINE) return {kind: text}
  const keywords = [HISTORY_BASELINE, PREVIOUS]
  const lower = text.toLowerCase()
  const near =
    keywords.find((k) => lower === k) ??
    (lower.length >= 2 ? keywords.find((k) => k.startsWith(lower)) : undefined) ??
    closest(lower, keywords)
  if (near !== undefined) {
    throw new UsageError(`--baseline ${value}: did you mean ${near}? (--baseline takes history, previous or a RUN_ID)`)
  }
  return {kind: 'run', runId: requireId('--baseline', value)}
}

/**
 * A run page's template (`--run-url`, `$AMCTL_RUN_URL`): an absolute URL with `{id}` where the
 * run's ID goes (URL-encoded), https (http only for loopback hosts, as the base URL: contract
 * 1.2), no user name or password; exit 2 naming where it came from otherwise.
 */
export function parseRunUrl(value: string, source: string): string {
  const template = value.trim()
  if (!template.includes('{id}'))
    throw new UsageError(
      `${source} must hold {id} where the run's ID goes, e.g. https://app.example.com/runs/{id}; got ${JSON.stringify(value)}`,
    )
  let url: URL
  try {
    url = new URL(template.split('{id}').join('id'))
  } catch {
    throw new UsageError(
      `${source} must be an absolute URL with {id}, e.g. https://app.example.com/runs/{id}; got ${JSON.stringify(value)}`,
    )
  }
  if (url.username || url.password) throw new UsageError(`${source} must not carry a user name or password`)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(`${source} must use https (http only for 127.0.0.1, ::1 and localhost); got ${JSON.stringify(value)}`)
  }
  if (CONTROL_CHARACTER.test(template)) throw new UsageError(`${source} must not hold control characters; got ${JSON.stringify(value)}`)
  return template
}

/**
 * The run page template of a report: --run-url, else $AMCTL_RUN_URL (ignored without a report
 * to put it in, so that CI can set it for every step); --run-url without --html is exit 2.
 */
export function reportRunUrl(html: boolean, flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) {
    if (!html) throw new UsageError('--run-url acts only with --html')
    return parseRunUrl(flag, '--run-url')
  }
  const fromEnv = env[RUN_URL_ENV]
  return html && fromEnv !== undefined && fromEnv !== '' ? parseRunUrl(fromEnv, RUN_URL_ENV) : undefined
}

/**
 * A report path: not empty, and without control characters. A newline or a carriage return in a
 * path that CI repeats (a step's outputs, annotations, logs) could forge lines there; no report
 * needs one (`--junit "rep/x.xml\nverdict=passed"` exits 2). (The paths amctl only reads,
 * `--input`, `-F @file`, and the dev server's `--data` are taken as they are: never repeated.)
 */
export function requirePath(label: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`${label} must be a file path, got ""`)
  if (CONTROL_CHARACTER.test(value)) {
    throw new UsageError(`${label} must be a file path without control characters (a newline, a tab…), got ${JSON.stringify(value)}`)
  }
  return value
}

/** The wait flags as given, to repeat them in a command line. */
export function watchFlagWords(flags: WatchFlagValues): string[] {
  const words: string[] = []
  const valued = [
    'interval',
    'wait-timeout',
    'min-score',
    'baseline',
    'baseline-file',
    'baseline-max-age',
    'baseline-window',
    'baseline-runs',
    'confidence',
    'max-drop',
    'junit',
    'summary',
    'html',
    'run-url',
  ] as const
  for (const name of valued) if (flags[name] !== undefined) words.push(`--${name}`, flags[name])
  if (flags['fail-fast']) words.push('--fail-fast')
  if (flags['fail-inconclusive']) words.push('--fail-inconclusive')
  if (flags['require-baseline']) words.push('--require-baseline')
  // (a watch again after Ctrl-C judges against the file; whether it updates it is the step's own choice)
  if (flags['update-baseline']) words.push('--update-baseline')
  if (flags['ci-annotations'] !== undefined) words.push(flags['ci-annotations'] ? '--ci-annotations' : '--no-ci-annotations')
  return words
}

/** `amctl runs watch …` with the same runs, organization, server and wait flags. */
export function againCommand(ids: readonly string[], org: string, flags: WatchFlagValues & ServerFlagValues): string {
  const words = ['amctl', 'runs', 'watch', ...new Set(ids), '--org', org]
  for (const name of ['profile', 'base-url'] as const) if (flags[name] !== undefined) words.push(`--${name}`, flags[name])
  return shellLine([...words, ...watchFlagWords(flags)])
}
