import {readFileSync, writeFileSync} from 'node:fs'
import {
  type BaselineFile,
  type BaselineFileOutcome,
  type BaselineFileRun,
  baselineFileText,
  groupStats,
  parseBaselineFile,
} from '../../src/gate/baseline-file.js'

/** Every date a test's baseline files hold is before this: a file read back to be looked at is never "in the future". */
const LATER = Date.parse('2100-01-01T00:00:00.000Z')

/** The baseline file at `path`, checked as amctl reads it (exit 2's error when it is not valid). */
export function baselineAt(path: string): BaselineFile {
  return parseBaselineFile(readFileSync(path, 'utf8'), path, LATER).file
}

/** A group of a test's file: its runs (oldest first) and outcomes; mean and sd are its runs'. */
export interface TestGroup {
  agent: string | null
  model: string | null
  runs: BaselineFileRun[]
  failed?: BaselineFileOutcome[]
  cancelled?: BaselineFileOutcome[]
}

/** Writes a version 2 baseline file of es_1 in acme (unless `head` says otherwise) holding `groups` to `path`. */
export function writeBaseline(path: string, head: Partial<Omit<BaselineFile, 'groups'>> & {savedAt: string}, groups: TestGroup[]): string {
  const file: BaselineFile = {
    version: 2,
    org: 'acme',
    evalSetId: 'es_1',
    keep: 50,
    ...head,
    groups: groups.map((g) => ({
      agent: g.agent,
      model: g.model,
      ...groupStats(g.runs),
      runs: g.runs,
      setAside: [],
      failed: g.failed ?? [],
      cancelled: g.cancelled ?? [],
    })),
  }
  writeFileSync(path, baselineFileText(file))
  return path
}
