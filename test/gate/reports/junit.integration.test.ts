import {describe, expect, it} from 'vitest'
import {junitXml} from '../../../src/gate/reports/junit.js'
import {junitSchemaErrors, parseJunit, sampleReport} from './fixtures.js'

// The --junit report held to the JUnit schema by xmllint (WebAssembly, in a worker thread: the
// integration project; the report's content in ./junit.test.ts).

describe('junitXml (--junit)', () => {
  it('is valid against the JUnit schema Jenkins and GitLab document', async () => {
    const xml = await junitXml(sampleReport())
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>')).toBe(true)
    expect(await junitSchemaErrors(xml)).toEqual([])
  })

  it('a run never found goes to a suite of its own when its eval set is not known; a report without runs is still valid', async () => {
    const lost = sampleReport({
      end: 'interrupted',
      runs: [{...sampleReport().runs[3], evalSetId: null, createdAt: null, seconds: null, status: null}],
    })
    const xml = await junitXml(lost)
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(parseJunit(xml).testsuites.testsuite[0]['@_name']).toBe('(unknown eval set)')
    expect(await junitSchemaErrors(await junitXml(sampleReport({runs: []})))).toEqual([])
  })
})
