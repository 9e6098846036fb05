import {AmctlError} from '../../core/errors.js'
import {terminalSafe} from '../sanitize.js'
import {byEvalSet, type CiReport, type ReportRun} from './model.js'

/**
 * `--junit PATH`: the report as JUnit XML, as GitLab (`artifacts:reports:junit`), Jenkins and
 * GitHub's test-report actions read it, valid against the Apache Ant JUnit schema that Jenkins
 * and GitLab document (test/output/reports/JUnit.xsd):
 *
 *   <testsuites>
 *     <testsuite name=EVAL_SET package=EVAL_SET id=N timestamp hostname tests failures errors skipped time>
 *       <properties>  <property name="<run ID>.score" value=…/> (and .baseline, .baseline-score, .delta)
 *       <testcase classname=EVAL_SET name="<agent> / <model> (<run ID>)" time=SECONDS>
 *         <failure type=RULE message=…>   (failed, cancelled, below --min-score, beyond --max-drop)
 *         <skipped message=…/>           (not finished when the wait ended)
 *       <system-out/> <system-err/>
 *
 * The schema allows properties only on a testsuite, so a run's score is a property of its
 * suite, named by the run. Counts are derived from the testcases. Server text is made
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
export function testcaseName(run: ReportRun): string {
  return `${text(run.agent, '(no agent)')} / ${text(run.model, '(no model)')} (${terminalSafe(run.id)})`
}

function testcase(run: ReportRun, classname: string): Record<string, unknown> {
  const node: Record<string, unknown> = {'@_classname': classname, '@_name': testcaseName(run), '@_time': seconds(run.seconds)}
  if (run.outcome === 'failed' && run.failure) {
    const reason = terminalSafe(run.failure.reason)
    node.failure = {
      '@_type': run.failure.rule,
      '@_message': reason,
      '#text': [
        `run ${terminalSafe(run.id)}: ${reason}`,
        `status: ${text(run.status, 'unknown')}`,
        `score: ${run.score ?? 'none'}`,
        ...(run.baseline === undefined
          ? []
          : [`baseline: ${run.baseline ? `${terminalSafe(run.baseline.runId)} (${run.baseline.score})` : 'none'}`]),
      ].join('\n'),
    }
  } else if (run.outcome === 'skipped') {
    node.skipped = {'@_message': terminalSafe(run.skipped ?? 'not finished')}
  }
  return node
}

function properties(runs: ReportRun[]): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = []
  const add = (run: ReportRun, name: string, value: string) => out.push({'@_name': `${terminalSafe(run.id)}.${name}`, '@_value': value})
  for (const run of runs) {
    if (run.score !== null) add(run, 'score', String(run.score))
    if (run.baseline) {
      add(run, 'baseline', terminalSafe(run.baseline.runId))
      add(run, 'baseline-score', String(run.baseline.score))
    }
    if (run.delta !== undefined && run.delta !== null) add(run, 'delta', String(run.delta))
  }
  return out
}

/** The JUnit XML document of `report` (UTF-8, with its declaration). */
export async function junitXml(report: CiReport): Promise<string> {
  const suites = byEvalSet(report).map(({evalSetId, runs}, id) => {
    const name = terminalSafe(evalSetId)
    const cases = runs.map((run) => testcase(run, name))
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
      properties: {property: properties(runs)},
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
