import {describe, expect, it} from 'vitest'
import {junitXml} from '../../../src/gate/reports/junit.js'
import {parseJunit, sampleReport} from './fixtures.js'

describe('junitXml (--junit)', () => {
  it('one testsuite per eval set, one testcase per run; counts derived from the children', async () => {
    const doc = parseJunit(await junitXml(sampleReport()))
    const suites = doc.testsuites.testsuite
    expect(suites.map((s: any) => s['@_name'])).toEqual(['es_acme_checkout', 'es_acme_search'])
    const [checkout, search] = suites
    expect(checkout).toMatchObject({
      '@_package': 'es_acme_checkout',
      '@_id': '0',
      '@_tests': '3',
      '@_failures': '2',
      '@_errors': '0',
      '@_skipped': '0',
    })
    expect(checkout['@_timestamp']).toBe('2026-11-25T09:00:00')
    expect(checkout['@_hostname']).toBe('amctl.example.com')
    expect(checkout['@_time']).toBe('37.500')
    expect(search).toMatchObject({'@_id': '1', '@_tests': '2', '@_failures': '1', '@_skipped': '1'})
    for (const suite of suites) {
      const cases = suite.testcase
      expect(Number(suite['@_tests'])).toBe(cases.length)
      expect(Number(suite['@_failures'])).toBe(cases.filter((c: any) => c.failure !== undefined).length)
      expect(Number(suite['@_skipped'])).toBe(cases.filter((c: any) => c.skipped !== undefined).length)
    }
  })

  it('testcase: classname the eval set, name "<agent> / <model> (<run ID>)", time in seconds; failure with rule and reason; skipped', async () => {
    const doc = parseJunit(await junitXml(sampleReport()))
    const [checkout, search] = doc.testsuites.testsuite
    expect(checkout.testcase[0]).toEqual({
      '@_classname': 'es_acme_checkout',
      '@_name': 'claude-code / claude-sonnet-4-5 (run_1)',
      '@_time': '12.500',
    })
    const failure = checkout.testcase[1].failure
    expect(failure['@_type']).toBe('max-drop')
    expect(failure['@_message']).toBe('scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1)')
    expect(failure['#text']).toContain('baseline: run_9 (0.88)')
    expect(search.testcase[1].skipped['@_message']).toBe('not finished (running)')
  })

  it('the scores, baselines and deltas are properties of the suite, named by the run (the schema has no testcase properties)', async () => {
    const doc = parseJunit(await junitXml(sampleReport()))
    const props = Object.fromEntries(doc.testsuites.testsuite[0].properties.property.map((p: any) => [p['@_name'], p['@_value']]))
    expect(props).toEqual({
      'run_1.score': '0.82',
      'run_1.verdict': 'passed',
      'run_1.baseline': 'run_0',
      'run_1.baseline-score': '0.8',
      'run_1.delta': '0.02',
      'run_2.score': '0.61',
      'run_2.verdict': 'regressed',
      'run_2.baseline': 'run_9',
      'run_2.baseline-score': '0.88',
      'run_2.delta': '-0.27',
      'run|5\\u000a<b>*x*</b> & `y`\\u001b[31m.score': '0.82',
      'run|5\\u000a<b>*x*</b> & `y`\\u001b[31m.verdict': 'failed',
    })
  })

  it('server text is data: markup is escaped, control characters written visibly, one line per attribute', async () => {
    const xml = await junitXml(sampleReport())
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/)
    expect(xml).not.toContain('<b>')
    const hostile = parseJunit(xml).testsuites.testsuite[0].testcase[2]
    expect(hostile['@_name']).toBe(
      'agent|with|pipes\\u000d\\u000aand::colons,commas% / _emph_ [link](http://x) (run|5\\u000a<b>*x*</b> & `y`\\u001b[31m)',
    )
    expect(hostile.failure['@_message']).toBe('weird\\u0007\\u000anext line')
  })
})
