import {CADENCES, type Cadence, SAMPLES} from '../../../contract/vocabulary.js'
import type {EvalSetPatch} from '../../../contract/types.js'
import {setMember} from '../../../input/body.js'
import {UsageError} from '../../../core/errors.js'
import {locateJsonError} from '../../../input/json-locate.js'
import {parseIntegerInRange, requireId} from '../../../input/values.js'

export interface EvalUpdateFlags {
  cadence?: string
  samples?: string
  connection?: string[]
  'clear-connections'?: boolean
  set?: string[]
}

/** Members with a flag of their own: `--set` may not write them. */
const OWN_FLAG: Record<string, string> = {
  cadence: '--cadence',
  samplesPerTarget: '--samples',
  connectionIds: '--connection/--clear-connections',
}

/** The PATCH body `evals update` sends: only what was given, checked before any request. */
export function evalSetPatch(flags: EvalUpdateFlags): EvalSetPatch {
  const patch: EvalSetPatch = {}
  if (flags.cadence !== undefined) {
    const cadence = flags.cadence.trim().toUpperCase()
    if (!(CADENCES as readonly string[]).includes(cadence)) {
      throw new UsageError(`--cadence must be one of ${CADENCES.join(', ')} (any case), got "${flags.cadence}"`)
    }
    patch.cadence = cadence as Cadence
  }
  if (flags.samples !== undefined) patch.samplesPerTarget = parseIntegerInRange('--samples', flags.samples, SAMPLES.min, SAMPLES.max)
  const connections = flags.connection ?? []
  if (connections.length > 0 && flags['clear-connections']) {
    throw new UsageError('--connection and --clear-connections contradict each other; give one of them')
  }
  if (connections.length > 0) patch.connectionIds = connections.map((c) => requireId('--connection', c))
  if (flags['clear-connections']) patch.connectionIds = []
  for (const raw of flags.set ?? []) {
    const eq = raw.indexOf('=')
    if (eq <= 0) throw new UsageError(`--set expects KEY=JSON, got "${raw}"`)
    const key = raw.slice(0, eq)
    const text = raw.slice(eq + 1)
    if (Object.hasOwn(OWN_FLAG, key)) throw new UsageError(`--set ${key} is not allowed: use ${OWN_FLAG[key]}`)
    if (Object.hasOwn(patch, key)) throw new UsageError(`--set ${key} is given twice`)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      const {line, column, problem} = locateJsonError(text)
      throw new UsageError(
        `--set ${key}: the value is not valid JSON (${problem} at line ${line}, column ${column}); quote strings, e.g. ${key}='"text"'`,
      )
    }
    setMember(patch, key, value)
  }
  if (Object.keys(patch).length === 0) {
    throw new UsageError('nothing to change: give --cadence, --samples, --connection, --clear-connections or --set')
  }
  return patch
}
