import {describe, expect, it} from 'vitest'
import {useE2E} from '../helpers.js'
import {lines} from './util.js'

// evals comment from the built CLI (its schema check is dist/schema.cjs, apart from the bundle)
// against the dev server's seeded runs: run_acme_0257 failed, run_acme_0001 succeeded.

const e2e = useE2E()

describe('amctl evals comment', () => {
  it('prints the comment of a wait from its --json on stdin; an edited document is refused, exit 2', async () => {
    const watch = await e2e.current.amctl(['runs', 'watch', 'run_acme_0257', 'run_acme_0001', '--org', 'acme', '--json'])
    expect(watch.exitCode, watch.stderr).toBe(10)
    const comment = await e2e.current.amctl(['evals', 'comment', '-'], {input: watch.stdout})
    expect(comment.exitCode, comment.stderr).toBe(0)
    expect(lines(comment.stdout)[0]).toMatch(/^### ❌ \*\*.+\*\*: 1 of 1 run did not succeed \(failed\) · 1 of 2 runs did not pass$/)
    expect(comment.stdout).toContain('| Run | Score | Verdict |')
    expect(comment.stderr).toBe('')
    const edited = await e2e.current.amctl(['evals', 'comment', '-'], {input: watch.stdout.replace('"end":"not-passed"', '"end":"maybe"')})
    expect(edited.exitCode).toBe(2)
    expect(edited.stdout).toBe('')
    expect(lines(edited.stderr)).toEqual([
      'error: FILE - (standard input): its "gate" is not a wait\'s result at gate.end: must be equal to one of the allowed values (invalid_request)',
    ])
  })
})
