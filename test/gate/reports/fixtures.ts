import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {XMLParser} from 'fast-xml-parser'
import {validateXML} from 'xmllint-wasm'
import type {GateResult, RunResult} from '../../../src/gate/result.js'
import {ROOT} from '../../helpers/cli.js'

/** The JUnit schema Jenkins and GitLab document (see the file's comment). */
export const JUNIT_XSD = readFileSync(join(ROOT, 'test', 'gate', 'reports', 'JUnit.xsd'), 'utf8')

/** The schema's complaints about `xml` (none: valid). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({xml: [{fileName: 'report.xml', contents: xml}], schema: [JUNIT_XSD]})
  return result.errors.map((e) => e.rawMessage)
}

/** The XML parsed back (attributes as `@_name`; testsuite, testcase and property always arrays). */
export function parseJunit(xml: string): any {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseAttributeValue: false,
    parseTagValue: false,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  })
  return parser.parse(xml)
}

const VERDICT_OF = {passed: 'passed', failed: 'failed', skipped: 'unfinished'} as const
const passed = (id: string, fields: Partial<RunResult> = {}): RunResult => ({
  verdict: VERDICT_OF[fields.outcome ?? 'passed'],
  id,
  evalSetId: 'es_acme_checkout',
  agent: 'claude-code',
  model: 'claude-sonnet-4-5',
  status: 'succeeded',
  score: 0.82,
  seconds: 12.5,
  createdAt: '2026-11-25T09:00:00.000Z',
  outcome: 'passed',
  ...fields,
})

/** A report with every kind of run: passed, failed on each rule, skipped, never found, hostile server text. */
export function sampleReport(fields: Partial<GateResult> = {}): GateResult {
  return {
    end: 'not-passed',
    org: 'acme',
    host: 'amctl.example.com',
    rules: {minScore: 0.5, maxDrop: 0.1, baseline: 'previous', baselineWindowS: 30 * 86_400, timeoutS: 1800},
    unfinishedRunIds: ['run_4'],
    runs: [
      passed('run_1', {baseline: {runId: 'run_0', score: 0.8}, delta: 0.02}),
      passed('run_2', {
        agent: 'codex',
        model: 'gpt-5',
        score: 0.61,
        outcome: 'failed',
        verdict: 'regressed',
        failure: {rule: 'max-drop', reason: 'scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1)'},
        decision: {rule: 'max-drop', against: {runId: 'run_9', score: 0.88}, maxDrop: 0.1, unscored: false, side: 'below'},
        baseline: {runId: 'run_9', score: 0.88},
        delta: -0.27,
      }),
      passed('run_3', {
        evalSetId: 'es_acme_search',
        status: 'failed',
        score: 0.2,
        outcome: 'failed',
        failure: {rule: 'status', reason: 'failed'},
        decision: {rule: 'status', failed: 1, of: 1, statuses: ['failed']},
        baseline: null,
        delta: null,
      }),
      passed('run_4', {
        evalSetId: 'es_acme_search',
        status: 'running',
        score: null,
        outcome: 'skipped',
        skipped: 'not finished (running)',
        baseline: null,
        delta: null,
      }),
      passed('run|5\n<b>*x*</b> & `y`\u001b[31m', {
        agent: 'agent|with|pipes\r\nand::colons,commas%',
        model: '_emph_ [link](http://x)',
        status: 'weird\u0007',
        outcome: 'failed',
        failure: {rule: 'status', reason: 'weird\u0007\nnext line'},
        decision: {rule: 'status', failed: 1, of: 1, statuses: ['weird\u0007']},
        baseline: null,
        delta: null,
      }),
    ],
    ...fields,
  }
}
