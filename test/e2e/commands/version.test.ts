import {describe, expect, it} from 'vitest'
import {runBin} from '../../helpers/bin.js'

// gh's habits where they fit: `amctl version`, and CLICOLOR_FORCE for a log that shows colours.

describe('amctl version', () => {
  it('prints what --version prints (both without loading the CLI); --json and -q through the bundle', async () => {
    const [flag, word, json, jq] = await Promise.all([
      runBin(['--version']),
      runBin(['version']),
      runBin(['version', '--json']),
      runBin(['version', '-q', '.version']),
    ])
    expect(flag.exitCode).toBe(0)
    expect(flag.stdout).toMatch(/^amctl\/\d+\.\d+\.\d+ \S+ node-v\d+/)
    expect(word).toMatchObject({exitCode: 0, stdout: flag.stdout, stderr: ''})
    const doc = JSON.parse(json.stdout)
    expect(flag.stdout.split('\n')[0]).toBe(`amctl/${doc.version} ${doc.platform}-${doc.arch} node-${doc.node}`)
    expect(jq.stdout).toBe(`${doc.version}\n`)
  })
})

describe('CLICOLOR_FORCE', () => {
  it('colours the error line when stderr is not a terminal; NO_COLOR still wins', async () => {
    const env = {AMCTL_TOKEN: undefined, AMCTL_BASE_URL: 'http://127.0.0.1:9'}
    const [plain, forced, both] = await Promise.all([
      runBin(['auth', 'status'], {env}),
      runBin(['auth', 'status'], {env: {...env, CLICOLOR_FORCE: '1'}}),
      runBin(['auth', 'status'], {env: {...env, CLICOLOR_FORCE: '1', NO_COLOR: '1'}}),
    ])
    for (const r of [plain, forced, both]) expect(r.exitCode).toBe(3)
    expect(plain.stderr).toMatch(/^error: not logged in/)
    expect(forced.stderr).toMatch(
      /^\u001b\[31merror: not logged in to http:\/\/127\.0\.0\.1:9 \(unauthorized\)\u001b\[39m\n\u001b\[2mhint: /,
    )
    expect(both.stderr).toBe(plain.stderr)
  })
})
