import type {JsonObject} from '../../../contract/types.js'
import type {Column} from '../../../output/format.js'
import type {Renderer} from '../../../output/renderer.js'

/**
 * Terminal views of the optimization answers (their members are free-form in the API, so each
 * view uses what it recognises and shows the rest as key/values; pipes and --json get the
 * answer as it came).
 */

type Trial = Record<string, unknown>

const TRIAL_COLUMNS: Column<Trial>[] = [
  {header: 'TRIAL', get: (t) => t.id},
  {header: 'STATUS', get: (t) => t.status},
  {header: 'DESCRIPTION', get: (t) => t.description, flexible: true},
]

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A round (its number, status …) as key/values, then its trials as a table. */
export function showRound(out: Renderer, answer: JsonObject): void {
  if (!out.tty) {
    out.object(answer)
    return
  }
  const {trials, ...rest} = answer
  // (an answer of trials alone shows just its table; one of nothing says so)
  if (Object.keys(rest).length > 0 || trials === undefined) out.object(rest)
  if (Array.isArray(trials) && trials.every(isObject)) {
    out.text('')
    out.list(trials, TRIAL_COLUMNS, '(no trials)')
  } else if (trials !== undefined) out.object({trials})
}

/** The chat channel: the assistant's latest reply as text. */
export function showChat(out: Renderer, answer: JsonObject): void {
  if (!out.tty) {
    out.object(answer)
    return
  }
  const messages = Array.isArray(answer.messages) ? answer.messages.filter(isObject) : []
  const reply = [...messages].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string')
  if (reply === undefined) {
    out.object(answer)
    return
  }
  out.block(reply.content as string)
}
