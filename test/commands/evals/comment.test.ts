import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import EvalsComment from '../../../src/commands/evals/comment.js'
import {runCommand} from '../../helpers/cli.js'
import {useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {CASES, runCase} from '../../gate/reports/comments.js'

const api = useFakeApi({}, {me: false})

describe('evals comment FILE|-: the pull-request comment of a wait, from its --json document', () => {
  const regressed = CASES.find((c) => c.name === 'regressed') as (typeof CASES)[number]

  it('prints the Markdown the step wrote as its --summary, from a file or stdin, and sends no request', async () => {
    const {json, summary, dir} = await runCase(api, regressed)
    const before = api.requests().length
    const file = join(dir, 'step.json')
    writeFileSync(file, json)
    const fromFile = await runCommand(EvalsComment, [file], {env: api.env()})
    expect(fromFile.exitCode, fromFile.stderr).toBe(0)
    expect(fromFile.stdout).toBe(summary)
    expect(fromFile.stderr).toBe('')
    const fromStdin = await runCommand(EvalsComment, ['-'], {stdin: json, env: api.env()})
    expect(fromStdin.stdout).toBe(summary)
    // on a terminal it prints the same text (terminal-safe: the Markdown holds no control character)
    const tty = await runCommand(EvalsComment, [file], {env: api.env(), tty: true})
    expect(tty.stdout).toBe(summary)
    expect(api.requests()).toHaveLength(before)
  })

  it('--json: {"body"}', async () => {
    const {json, summary} = await runCase(api, regressed)
    const r = await runCommand(EvalsComment, ['-', '--json'], {stdin: json, env: api.env()})
    expect(JSON.parse(r.stdout)).toEqual({body: summary})
  })

  it('AMCTL_DOCS_URL links the method to docs/ci.md', async () => {
    const {json} = await runCase(api, regressed)
    const r = await runCommand(EvalsComment, ['-'], {
      stdin: json,
      env: {...api.env(), AMCTL_DOCS_URL: 'https://github.com/acme/amctl/blob/v0.3.0/docs/'},
    })
    expect(r.stdout).toContain('more in [docs/ci.md](https://github.com/acme/amctl/blob/v0.3.0/docs/ci.md).')
  })

  it("a document that is not a wait's: exit 2, one line naming what is wrong, never its content", async () => {
    const {json} = await runCase(api, regressed)
    const doc = JSON.parse(json)
    const tampered = structuredClone(doc)
    tampered.gate.runs[0].score = 'ghp_SECRET'
    const noEnd = structuredClone(doc)
    delete noEnd.gate.end
    const cases: Array<[string, RegExp]> = [
      ['', /^error: FILE - \(standard input\) is empty; expected a JSON object/],
      ['ghp_SECRET', /^error: FILE - \(standard input\) is not valid JSON: .* at line 1, column 1/],
      ['[1]', /^error: FILE - \(standard input\) must be a JSON object, got an array/],
      [
        '{"items":[],"unfinishedRunIds":[]}',
        /^error: FILE - \(standard input\): a document without "gate"; give the --json document of `evals run --wait` or `runs watch`/,
      ],
      [
        '{"outcome":"unknown","recentRuns":[],"error":{}}',
        /^error: FILE - \(standard input\): the document of a launch whose outcome is unknown;/,
      ],
      [
        JSON.stringify(tampered),
        /^error: FILE - \(standard input\): its "gate" is not a wait's result at gate\.runs\.0\.score: must be number,null/,
      ],
      [JSON.stringify(noEnd), /^error: FILE - \(standard input\): its "gate" is not a wait's result: must have required property 'end'/],
    ]
    for (const [stdin, message] of cases) {
      const r = await runCommand(EvalsComment, ['-'], {stdin, env: api.env()})
      expect(r.exitCode, stdin.slice(0, 40)).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n'), stdin.slice(0, 40)).toEqual([expect.stringMatching(message)])
      if (stdin !== 'ghp_SECRET') expect(r.stderr).not.toContain('ghp_SECRET')
    }
    const missing = await runCommand(EvalsComment, [join(tempDir('amctl-comment-none-'), 'step.json')], {env: api.env()})
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toMatch(/step\.json/)
  })
})
