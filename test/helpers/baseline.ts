import {readFileSync} from 'node:fs'
import {type BaselineFile, parseBaselineFile} from '../../src/gate/baseline-file.js'

/** Every date a test's baseline files hold is before this: a file read back to be looked at is never "in the future". */
const LATER = Date.parse('2100-01-01T00:00:00.000Z')

/** The baseline file at `path`, checked as amctl reads it (exit 2's error when it is not valid). */
export function baselineAt(path: string): BaselineFile {
  return parseBaselineFile(readFileSync(path, 'utf8'), path, LATER).file
}
