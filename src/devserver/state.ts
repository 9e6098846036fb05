/**
 * Everything the dev server knows, as one JSON-serializable value (what `--data` holds). Its JSON
 * Schema (./state-schema.ts) is the one description: the types below are generated from it
 * (./state-types.ts, `npm run generate`), so the file the server checks and the types it is
 * written with cannot disagree.
 */

export {STATE_FORMAT, STATE_VERSION} from './state-schema.js'
export type {
  ChatMessage,
  Experiment,
  McpServer,
  Optimization,
  OrgRecord,
  Persona,
  Round,
  RunPlan,
  ScenarioRecord,
  State,
  Tag,
  TokenRecord,
  Trial,
  UserRecord,
  Variant,
  VisibilityPrompt,
} from './state-types.js'
import type {State} from './state-types.js'

/** A resource and the organization that owns it (each member of an `owned()` collection of the schema). */
export interface Owned<T> {
  orgId: string
  item: T
}

/** The collections of `Owned` resources, by name. */
export type OwnedCollection = {
  [K in keyof State]: State[K] extends Record<string, Owned<unknown>> ? K : never
}[keyof State]
