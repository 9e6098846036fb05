import type {Cadence} from '../contract/vocabulary.js'
import type {Connection, EvalSet, JsonObject, OrgRef, Run} from '../contract/types.js'

/** Everything the dev server knows, as one JSON-serializable value (what `--data` holds). */

export const STATE_FORMAT = 'amctl-devserver-state'
export const STATE_VERSION = 1

export interface UserRecord {
  id: string
  email: string
  name: string
}

export interface Persona {
  id: string
  name: string
  description: string
}

export interface OrgRecord extends OrgRef {
  createdAt: string
  /** user IDs */
  members: string[]
  capabilities: {optimizations: boolean}
  credits: number
  /** whether a model-provider key is configured (optimization previews need one) */
  providerKey: boolean
  /** repositories (`owner/name`) the organization can reach */
  repositories: string[]
  personas: Persona[]
  implementationDoc: JsonObject | null
}

export interface TokenRecord {
  id: string
  name: string
  userId: string
  /** SHA-256 (hex) of the token; the token itself is never stored */
  hash: string
  createdAt: string
  expiresAt: string | null
}

/** How a launched or forked run moves on its own (src/devserver/runs.ts), fixed when it is created. */
export interface RunPlan {
  /** when it leaves `queued` for `running` */
  runningAt: string
  /** when it reaches its outcome */
  finishedAt: string
  outcome: 'succeeded' | 'failed' | 'cancelled'
  score: number | null
}

/** A resource and the organization that owns it. */
export interface Owned<T> {
  orgId: string
  item: T
}

/** The run settings a preference prompt owns and its scenarios inherit. */
export interface RunSettings {
  agents: string[]
  models: string[]
  skillIds: string[]
  mcpServerIds: string[]
  connectionIds: string[]
  cadence: Cadence
  samplesPerTarget: number
}

export interface VisibilityPrompt extends RunSettings {
  id: string
  name: string
  /** only `preference` prompts own repository/persona scenarios */
  kind: 'preference' | 'visibility'
  prompt: string
  scenarioIds: string[]
}

export interface ScenarioRecord extends RunSettings {
  id: string
  visibilityPromptId: string
  repository: string
  /** persona name */
  persona: string
  personaId: string
  createdAt: string
}

export interface Experiment {
  id: string
  name: string
  status: 'draft' | 'launched'
  variantIds: string[]
  launchedAt: string | null
  launchOptions: JsonObject | null
}

export interface Variant {
  id: string
  experimentId: string
  name: string
  content: JsonObject
}

export interface Trial {
  id: string
  description: string
  status: 'proposed' | 'running' | 'completed'
}

export interface Round {
  number: number
  status: 'completed' | 'open'
  trials: Trial[]
}

export interface ChatMessage {
  role: 'user' | 'assistant'
  content: string
  at: string
}

export interface Optimization {
  id: string
  name: string
  evalSetId: string
  currentRound: number
  rounds: Round[]
  chat: ChatMessage[]
}

export interface McpServer {
  id: string
  name: string
  url: string
  transport: 'http' | 'stdio'
}

export interface Tag {
  id: string
  name: string
  color: string
}

export interface State {
  format: typeof STATE_FORMAT
  version: typeof STATE_VERSION
  /** feeds generated IDs, so they never repeat across restarts */
  counter: number
  users: UserRecord[]
  orgs: OrgRecord[]
  /** by token hash */
  tokens: Record<string, TokenRecord>
  /** by organization public ID, oldest first (the list answers them newest first) */
  runs: Record<string, Run[]>
  /** by run ID: the runs still moving on their own (absent from files written before runs moved) */
  runPlans: Record<string, RunPlan>
  evalSets: Record<string, Owned<EvalSet>>
  connections: Record<string, Owned<Connection>>
  /** by connection ID; server-side only, never part of any answer */
  connectionSecrets: Record<string, string>
  visibilityPrompts: Record<string, Owned<VisibilityPrompt>>
  scenarios: Record<string, Owned<ScenarioRecord>>
  experiments: Record<string, Owned<Experiment>>
  variants: Record<string, Owned<Variant>>
  optimizations: Record<string, Owned<Optimization>>
  mcpServers: Record<string, Owned<McpServer>>
  tags: Record<string, Owned<Tag>>
}

/** The collections of `Owned` resources, by name. */
export type OwnedCollection = {
  [K in keyof State]: State[K] extends Record<string, Owned<unknown>> ? K : never
}[keyof State]
