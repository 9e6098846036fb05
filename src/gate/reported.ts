import {UsageError} from '../core/errors.js'
import {parseJsonObject} from '../input/body.js'
import type {ReportedResult} from './result.js'

/**
 * A wait's result read back from its `--json` document (`amctl evals comment`): the document of
 * `evals run --wait` or `runs watch`, whose `gate` member is the result every report is made from
 * (./result.ts ReportedResult). The member is checked against its schema, generated from that
 * very type (./reports/gate-result.schema.json, `npm run generate`), before anything renders it:
 * a document of another command, cut short or edited, is one line naming what is wrong (exit 2),
 * never a stack trace or a half-drawn comment.
 */

type Check = ((value: unknown) => boolean) & {errors?: Array<{instancePath: string; message?: string}> | null}

let check: Check | undefined

async function checker(): Promise<Check> {
  if (check === undefined) {
    // (ajv apart from the bundle, and the schema read only here: no other command parses either)
    const {Ajv} = await import('ajv')
    const {default: schema} = await import('./reports/gate-result.schema.json', {with: {type: 'json'}})
    check = new Ajv({strict: false, allErrors: false, validateFormats: false}).compile(schema) as Check
  }
  return check
}

/** The result held by `text`, the --json document of a wait (`label` names where it came from). */
export async function reportedResultOf(text: string, label: string): Promise<ReportedResult> {
  const doc = parseJsonObject(text, label)
  if (!('gate' in doc)) {
    const what =
      'outcome' in doc && doc.outcome === 'unknown' ? 'the document of a launch whose outcome is unknown' : 'a document without "gate"'
    throw new UsageError(`${label}: ${what}; give the --json document of \`evals run --wait\` or \`runs watch\` (amctl 0.3.0 or later)`)
  }
  const valid = await checker()
  if (!valid(doc.gate)) {
    const [first] = valid.errors ?? []
    const where = first === undefined || first.instancePath === '' ? '' : ` at gate${first.instancePath.replaceAll('/', '.')}`
    throw new UsageError(`${label}: its "gate" is not a wait's result${where}: ${first?.message ?? 'it does not match'}`)
  }
  return doc.gate as ReportedResult
}
