import {describe, expect, it} from 'vitest'
import {githubAnnotations, workflowCommand} from '../../../src/gate/reports/github.js'
import {sampleReport} from './fixtures.js'

describe('GitHub Actions annotations', () => {
  it('one ::error per run that did not pass, naming it, its eval set, agent and model, and why', () => {
    const lines = githubAnnotations(sampleReport())
    expect(lines).toHaveLength(3)
    expect(lines[0]).toBe(
      '::error title=amctl%3A run run_2 did not pass::es_acme_checkout codex / gpt-5: scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1)',
    )
    expect(lines[1]).toBe('::error title=amctl%3A run run_3 did not pass::es_acme_search claude-code / claude-sonnet-4-5: failed')
  })

  it("values escaped as GitHub documents: a server's text cannot end the line and start a command of its own", () => {
    const [, , hostile] = githubAnnotations(sampleReport())
    expect(hostile.split('\n')).toHaveLength(1)
    expect(hostile).toBe(
      '::error title=amctl%3A run run|5%0A<b>*x*</b> & `y`\\u001b[31m did not pass::es_acme_checkout agent|with|pipes%0D%0Aand::colons,commas%25 / _emph_ [link](http://x): weird\\u0007%0Anext line',
    )
    expect(workflowCommand('error', 'a:b,c%', 'x\r\n::set-output name=y::z')).toBe(
      '::error title=a%3Ab%2Cc%25::x%0D%0A::set-output name=y::z',
    )
  })

  it('after --wait-timeout, each run not finished is an error too; after Ctrl-C it is not', () => {
    expect(githubAnnotations(sampleReport({end: 'timeout'}))).toContain(
      '::error title=amctl%3A run run_4 not finished::es_acme_search claude-code / claude-sonnet-4-5: running after --wait-timeout 30m',
    )
    expect(githubAnnotations(sampleReport({end: 'interrupted'}))).toHaveLength(3)
  })
})
