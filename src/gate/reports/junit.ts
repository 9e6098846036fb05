import {AmctlError} from '../../core/errors.js'
import {terminalSafe} from '../../output/sanitize.js'
import {FIGURE_LIST} from '../figures.js'
import {byEvalSet, type GateResult, sampleOf, type GroupResult, type RunResult} from '../result.js'
import type {GateBaseline} from '../rules.js'

/**
 * `--junit PATH`: the report as JUnit XML, as GitLab (`artifacts:reports:junit`), Jenkins and
 * GitHub's test-report actions read it, valid against the Apache Ant JUnit schema that Jenkins
 * and GitLab document (test/gate/reports/JUnit.xsd):
 *
 *   <testsuites>
 *     <testsuite name=EVAL_SET package=EVAL_SET id=N timestamp hostname tests failures errors skipped time>
 *       <properties>  <property name="<run ID>.score" value=…/> (and the gate's figures, each named as
 *                     ../figures.ts names it: .verdict, .baseline, .baseline-score, .delta; with a history
 *                     .baseline-mean, .baseline-sd, .baseline-runs, .margin; with a baseline file also
 *                     .baseline-file, .baseline-stale; with either .detectable; with --repeat auto a
 *                     group's .decided-at)
 *       <testcase classname=EVAL_SET name="<agent> / <model> (<run ID>)" time=SECONDS>
 *         <failure type=RULE message=…>   (failed, cancelled, below --min-score, beyond --max-drop or the noise)
 *         <skipped message=…/>           (not finished when the wait ended)
 *       <system-out/> <system-err/>
 *
 * With --repeat there is one testcase per group, named `<agent> / <model> (K runs)`, and its runs
 * are properties named `<agent> / <model>.run.N` (value `<run ID> <status> <score>`). The schema
 * allows properties only on a testsuite, so a run's score is a property of its suite, named by
 * the run (or the group). Counts are derived from the testcases. Server text is made
 * terminal-safe first (XML 1.0 cannot hold most control characters at all), then escaped by the
 * XML library (fast-xml-builder), which is loaded only when --junit is given: in dist/ it is a
 * file of its own beside the bundle (bin/build.js).
 */

/** The schema's timestamp: ISO 8601 to the second, no zone (we write UTC). */
function timestamp(iso: string | null): string {
  const at = iso === null ? Number.NaN : Date.parse(iso)
  return new Date(Number.isNaN(at) ? 0 : at).toISOString().slice(0, 19)
}

const seconds = (n: number | null): string => (n ?? 0).toFixed(3)

/** One line of server text for an attribute (XML folds newlines in attributes to spaces: they are written visibly instead). */
const text = (value: string | null, absent: string): string => (value === null ? absent : terminalSafe(value))

/** `<agent> / <model> (<run ID>)`. */
export function testcaseName(run: RunResult): string {
  return `${text(run.agent, '(no agent)')} / ${text(run.model, '(no model)')} (${terminalSafe(run.id)})`
}

/** The baseline in one line for a failure's text. */
function baselineLine(baseline: GateBaseline | null): string {
  if (baseline === null) return 'none'
  const history = sampleOf(baseline)
  if (history) {
    const runs = history.kind === 'file' ? `${history.runs} runs in ${terminalSafe(history.path)}` : `${history.runs} earlier runs`
    return `the mean of ${runs}, ${history.mean} ± ${history.sd} (${history.runIds.map((id) => terminalSafe(id)).join(', ')})`
  }
  return 'runId' in baseline ? `${terminalSafe(baseline.runId)} (${baseline.score})` : 'none'
}

/** `<agent> / <model> (K runs)`: a group's testcase. */
export function groupCaseName(group: GroupResult): string {
  return `${text(group.agent, '(no agent)')} / ${text(group.model, '(no model)')} (${group.runIds.length} runs)`
}

function testcase(item: RunResult | GroupResult, classname: string): Record<string, unknown> {
  const group = 'runIds' in item ? item : undefined
  const name = group ? groupCaseName(group) : testcaseName(item as RunResult)
  const node: Record<string, unknown> = {'@_classname': classname, '@_name': name, '@_time': seconds(item.seconds)}
  if (item.outcome === 'failed' && item.failure) {
    const reason = terminalSafe(item.failure.reason)
    const status = group
      ? `statuses: ${group.statuses.map((s) => text(s, 'unknown')).join(', ')}`
      : `status: ${text((item as RunResult).status, 'unknown')}`
    node.failure = {
      '@_type': item.failure.rule,
      '@_message': reason,
      '#text': [
        `${group ? `group ${terminalSafe(group.id)} (${group.runIds.map((id) => terminalSafe(id)).join(', ')})` : `run ${terminalSafe(item.id)}`}: ${reason}`,
        status,
        `score: ${item.score ?? 'none'}`,
        ...(item.baseline === undefined ? [] : [`baseline: ${baselineLine(item.baseline)}`]),
      ].join('\n'),
    }
  } else if (item.outcome === 'skipped') {
    node.skipped = {'@_message': terminalSafe(item.skipped ?? 'not finished')}
  }
  return node
}

function properties(items: Array<RunResult | GroupResult>): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = []
  for (const item of items) {
    const group = 'runIds' in item ? item : undefined
    const prefix = group ? `${text(group.agent, '(no agent)')} / ${text(group.model, '(no model)')}` : terminalSafe(item.id)
    const add = (name: string, value: string) => out.push({'@_name': `${prefix}.${name}`, '@_value': terminalSafe(value)})
    if (group) {
      group.runIds.forEach((id, i) => {
        add(`run.${i + 1}`, `${id} ${group.statuses[i] ?? 'unknown'} ${group.scores[i] ?? 'none'}`)
      })
    }
    if (item.score !== null) add('score', String(item.score))
    // the gate's figures, each as ./figures.ts names its property
    for (const figure of FIGURE_LIST) {
      const {junit} = figure
      if (junit === undefined) continue
      if (typeof junit !== 'string') for (const [name, value] of junit(item)) add(name, value)
      else if (figure.value(item) !== null) add(junit, String(figure.value(item)))
    }
  }
  return out
}

/** The JUnit XML document of `report` (UTF-8, with its declaration). */
export async function junitXml(report: GateResult): Promise<string> {
  const suites = byEvalSet(report).map(({evalSetId, runs, groups}, id) => {
    const name = terminalSafe(evalSetId)
    const items = groups ?? runs
    const cases = items.map((item) => testcase(item, name))
    const created = runs.map((run) => run.createdAt).filter((at): at is string => at !== null && !Number.isNaN(Date.parse(at)))
    const first = created.sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? null
    return {
      '@_name': name,
      '@_package': name,
      '@_id': id,
      '@_timestamp': timestamp(first),
      '@_hostname': terminalSafe(report.host),
      '@_tests': cases.length,
      '@_failures': cases.filter((c) => c.failure !== undefined).length,
      '@_errors': 0,
      '@_skipped': cases.filter((c) => c.skipped !== undefined).length,
      '@_time': seconds(runs.reduce((sum, run) => sum + Number(seconds(run.seconds)), 0)),
      properties: {property: properties(items)},
      testcase: cases,
      'system-out': '',
      'system-err': '',
    }
  })
  const XMLBuilder = await loadBuilder()
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    indentBy: '  ',
    suppressEmptyNode: true,
  })
  return builder.build({'?xml': {'@_version': '1.0', '@_encoding': 'UTF-8'}, testsuites: {testsuite: suites}})
}

async function loadBuilder(): Promise<typeof import('fast-xml-builder').default> {
  try {
    return (await import('fast-xml-builder')).default
  } catch (error) {
    throw new AmctlError(`could not load the XML library: ${(error as Error).message}`, {code: 'internal', exitCode: 1, cause: error})
  }
}
