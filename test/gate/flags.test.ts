import {describe, expect, it} from 'vitest'
import {againCommand, parseWatchOptions, WATCH_DEFAULTS, watchFlagWords} from '../../src/gate/flags.js'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {UsageError} from '../../src/core/errors.js'
import {baselineFileText} from '../../src/gate/baseline-file.js'
import {tempDir} from '../helpers/temp.js'

/** when the flags are read: a baseline file's dates must not be past it */
const NOW = Date.parse('2026-11-25T12:00:00Z')

// The wait flags of `runs watch` and `evals run --wait` (contract 5), checked before any request.
describe('parseWatchOptions', () => {
  it('defaults: a poll every 5 s, up to 60 minutes, no fail-fast, no minimum score', () => {
    expect(parseWatchOptions({}, {}, NOW)).toEqual({
      options: {
        intervalS: WATCH_DEFAULTS.intervalS,
        timeoutS: 3600,
        failFast: false,
        minScore: undefined,
        maxDrop: undefined,
        requireBaseline: false,
        failInconclusive: false,
      },
      baselineRunId: undefined,
      reports: {junit: undefined, summary: undefined, annotations: false},
    })
  })

  it('reads what is given', () => {
    expect(parseWatchOptions({interval: '2.5', 'wait-timeout': '90s', 'fail-fast': true, 'min-score': '0.8'}, {}, NOW).options).toEqual({
      intervalS: 2.5,
      timeoutS: 90,
      failFast: true,
      minScore: 0.8,
      maxDrop: undefined,
      requireBaseline: false,
      failInconclusive: false,
    })
    expect(parseWatchOptions({'wait-timeout': '0'}, {}, NOW).options.timeoutS).toBe(0)
  })

  it('the regression gate: --baseline previous (window 30d unless given), or a RUN_ID looked up later; --max-drop', () => {
    expect(parseWatchOptions({baseline: 'previous', 'max-drop': '0.05'}, {}, NOW).options).toMatchObject({
      baseline: {kind: 'previous', windowS: 30 * 86_400},
      maxDrop: 0.05,
    })
    expect(parseWatchOptions({baseline: 'previous', 'baseline-window': '12h'}, {}, NOW).options.baseline).toEqual({
      kind: 'previous',
      windowS: 43_200,
    })
    expect(parseWatchOptions({baseline: 'history'}, {}, NOW).options).toMatchObject({
      baseline: {kind: 'history', windowS: 30 * 86_400, runs: 20, confidence: 0.95},
      maxDrop: undefined,
      requireBaseline: false,
    })
    expect(
      parseWatchOptions(
        {baseline: 'history', 'baseline-runs': '5', confidence: '0.99', 'require-baseline': true, 'baseline-window': '7d'},
        {},
        NOW,
      ).options,
    ).toMatchObject({baseline: {kind: 'history', windowS: 7 * 86_400, runs: 5, confidence: 0.99}, requireBaseline: true})
    const fixed = parseWatchOptions({baseline: 'run_9', 'max-drop': '0'}, {}, NOW)
    expect(fixed.baselineRunId).toBe('run_9')
    expect(fixed.options.baseline).toBeUndefined()
  })

  it('reports: the paths as given; annotations on in GitHub Actions unless --no-ci-annotations, or when asked', () => {
    expect(parseWatchOptions({junit: 'r/e.xml', summary: 'r/e.md'}, {}, NOW).reports).toEqual({
      junit: 'r/e.xml',
      summary: 'r/e.md',
      annotations: false,
    })
    expect(parseWatchOptions({}, {GITHUB_ACTIONS: 'true'}, NOW).reports.annotations).toBe(true)
    expect(parseWatchOptions({'ci-annotations': false}, {GITHUB_ACTIONS: 'true'}, NOW).reports.annotations).toBe(false)
    expect(parseWatchOptions({'ci-annotations': true}, {}, NOW).reports.annotations).toBe(true)
  })

  it.each([
    [{interval: '0.5'}, '--interval'],
    [{interval: '86401'}, '--interval'],
    [{'min-score': '1.5'}, '--min-score'],
    [{'wait-timeout': 'soon'}, '--wait-timeout'],
    [{'max-drop': '0.1'}, '--max-drop acts only with --baseline'],
    [{baseline: 'previous', 'max-drop': '2'}, '--max-drop must be a score difference from 0 to 1'],
    [{'baseline-window': '7d'}, '--baseline-window acts only with --baseline history or previous'],
    [{baseline: 'run_1', 'baseline-window': '7d'}, '--baseline-window acts only with --baseline history or previous'],
    [{'require-baseline': true}, '--require-baseline acts only with --baseline'],
    [{baseline: 'previous', 'baseline-runs': '5'}, '--baseline-runs acts only with --baseline history'],
    [{baseline: 'previous', confidence: '0.9'}, '--confidence acts only with --baseline history'],
    [{baseline: 'history', 'baseline-runs': '2'}, '--baseline-runs must be from 3 to 100, got 2'],
    [{baseline: 'history', 'baseline-runs': '101'}, '--baseline-runs must be from 3 to 100'],
    [{baseline: 'history', confidence: '0.4'}, '--confidence must be a confidence from 0.5 to 0.999, got "0.4"'],
    [{baseline: 'history', confidence: '1'}, '--confidence must be a confidence from 0.5 to 0.999'],
    // a near miss of a keyword is not a run ID to look up (exit 5): issue 26 item 23
    [{baseline: 'prev'}, '--baseline prev: did you mean previous?'],
    [{baseline: 'Previous'}, '--baseline Previous: did you mean previous?'],
    [{baseline: 'previus'}, '--baseline previus: did you mean previous?'],
    [{baseline: 'hist'}, '--baseline hist: did you mean history?'],
    [{baseline: 'histroy'}, '--baseline histroy: did you mean history?'],
    [{baseline: 'previous', 'baseline-window': '2w'}, '--baseline-window must be a duration'],
    [{baseline: ''}, '--baseline must not be empty'],
    [{junit: ''}, '--junit must be a file path'],
    // a path CI repeats (the Action's outputs, logs) cannot forge lines there: issue 32 item 13
    [{junit: 'rep2/x.xml\nverdict=passed\nexit-code=0'}, '--junit must be a file path without control characters'],
    [{summary: 'r/s.md\r'}, '--summary must be a file path without control characters'],
    [{junit: 'r/\tx.xml'}, '--junit must be a file path without control characters'],
    [{summary: 'r/\u001b]0;x\u0007.md'}, '--summary must be a file path without control characters'],
    [{junit: 'r/\u009bx.xml'}, '--junit must be a file path without control characters'],
    [{summary: 'r/\u007f.md'}, '--summary must be a file path without control characters'],
  ])('%j → exit 2 naming %s', (flags, name) => {
    expect(() => parseWatchOptions(flags, {}, NOW)).toThrow(UsageError)
    expect(() => parseWatchOptions(flags, {}, NOW)).toThrow(name)
  })
})

describe('againCommand', () => {
  it('repeats the runs once each, the org, server and wait flags, quoted for the shell', () => {
    expect(watchFlagWords({interval: '2', 'fail-fast': true})).toEqual(['--interval', '2', '--fail-fast'])
    expect(watchFlagWords({baseline: 'previous', 'max-drop': '0.1', junit: 'e.xml', 'ci-annotations': false})).toEqual([
      '--baseline',
      'previous',
      '--max-drop',
      '0.1',
      '--junit',
      'e.xml',
      '--no-ci-annotations',
    ])
    expect(againCommand(['r1', 'r 2', 'r1'], 'acme', {profile: 'ci', 'base-url': 'https://a.example', 'min-score': '0.5'})).toBe(
      "amctl runs watch r1 'r 2' --org acme --profile ci --base-url https://a.example --min-score 0.5",
    )
  })

  it('--baseline-file: read and checked at once (exit 2 naming the file); its own flags only with it; not with --baseline', () => {
    const dir = tempDir('amctl-flags-')
    const path = join(dir, 'base.json')
    writeFileSync(
      path,
      baselineFileText({version: 2, org: 'acme', evalSetId: 'es_1', savedAt: '2026-11-01T00:00:00.000Z', keep: 20, groups: []}),
    )
    expect(parseWatchOptions({'baseline-file': path, 'update-baseline': true, confidence: '0.9'}, {}, NOW).options.baseline).toMatchObject({
      kind: 'file',
      path,
      maxAgeS: 30 * 86_400,
      update: true,
      confidence: 0.9,
      file: {org: 'acme', evalSetId: 'es_1'},
    })
    writeFileSync(path, '{"version": 1,')
    const bad: Array<[Record<string, unknown>, string]> = [
      [{'baseline-file': path}, `baseline file ${path}: not JSON at line 1, column 15: a member name expected`],
      [{'baseline-file': path, baseline: 'history'}, '--baseline-file and --baseline are two baselines: give one'],
      [{'update-baseline': true}, '--update-baseline acts only with --baseline-file'],
      [{'baseline-max-age': '7d', baseline: 'history'}, '--baseline-max-age acts only with --baseline-file'],
      [
        {'baseline-file': path, 'baseline-runs': '30'},
        '--baseline-runs acts only with --baseline history (a baseline file keeps the runs it was saved with)',
      ],
      [{'baseline-file': path, 'baseline-window': '7d'}, '--baseline-window acts only with --baseline history or previous'],
      [{confidence: '0.9'}, '--confidence acts only with --baseline history or --baseline-file'],
    ]
    for (const [flags, message] of bad) {
      let error: unknown
      try {
        parseWatchOptions(flags, {}, NOW)
      } catch (e) {
        error = e
      }
      expect(error, JSON.stringify(flags)).toBeInstanceOf(UsageError)
      expect((error as Error).message).toContain(message)
    }
  })
})
