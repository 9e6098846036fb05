import type {Run} from '../contract/types.js'
import {STATE_FORMAT, STATE_VERSION, type OrgRecord, type Owned, type OwnedCollection, type State, type UserRecord} from './state.js'
import {schemaErrorText, type SchemaSet} from './schema.js'
import {STATE_SCHEMA} from './state-schema.js'
import {isObject} from './validate.js'
import {type Triple, tripleKey} from './history.js'

export interface RunLocation {
  orgId: string
  run: Run
}

/** Fields a caller chooses for a new run; the store assigns `id` and `createdAt`. */
export type NewRun = Pick<Run, 'status' | 'evalSetId' | 'batchId' | 'forkedFrom' | 'agent' | 'model' | 'score'> & {[extra: string]: unknown}

/** The state plus the indexes derived from it (rebuilt on load, never persisted). */
export class Store {
  private readonly runIndex = new Map<string, RunLocation>()
  /** how many runs each organization has of each eval set × agent × model (./history.ts) */
  private readonly tripleCounts = new Map<string, number>()

  constructor(readonly state: State) {
    this.reindex()
  }

  private reindex(): void {
    this.runIndex.clear()
    this.tripleCounts.clear()
    for (const [orgId, runs] of Object.entries(this.state.runs)) {
      for (const run of runs) this.index(orgId, run)
    }
  }

  /**
   * Puts the whole state back to `text` (what serialize() wrote earlier: ./persistence.ts undoes
   * a change it could not write). The state object stays the same object, so what holds it sees
   * the restored state.
   */
  restore(text: string): void {
    const restored = JSON.parse(text) as State
    const state = this.state as unknown as Record<string, unknown>
    for (const key of Object.keys(state)) delete state[key]
    Object.assign(state, restored)
    this.reindex()
  }

  private index(orgId: string, run: Run): void {
    this.runIndex.set(run.id, {orgId, run})
    const key = countKey(orgId, run)
    this.tripleCounts.set(key, (this.tripleCounts.get(key) ?? 0) + 1)
  }

  /**
   * Where each of `fields`, added now, falls in its eval set × agent × model: k for the k-th
   * run (from 0) of that triple in the organization. Call before addRuns.
   */
  sequences(orgId: string, fields: readonly NewRun[]): number[] {
    const next = new Map<string, number>()
    return fields.map((field) => {
      const key = countKey(orgId, field)
      const k = next.get(key) ?? this.tripleCounts.get(key) ?? 0
      next.set(key, k + 1)
      return k
    })
  }

  /** Reads a state file's text; throws an Error naming what is wrong. */
  static parse(text: string, schemas: SchemaSet): Store {
    const value: unknown = JSON.parse(text)
    if (!isObject(value) || value.format !== STATE_FORMAT) throw new Error(`not a dev server state file (format is not "${STATE_FORMAT}")`)
    if (value.version !== STATE_VERSION)
      throw new Error(`unsupported state version ${JSON.stringify(value.version)} (expected ${STATE_VERSION})`)
    // files written before runs moved on their own have no plans
    value.runPlans ??= {}
    const validate = schemas.compile(STATE_SCHEMA)
    if (!validate(value)) throw new Error(schemaErrorText(validate.errors, 'the state'))
    return new Store(value as unknown as State)
  }

  serialize(): string {
    return JSON.stringify(this.state)
  }

  /** A fresh ID `<prefix>_<n>`; the counter is part of the state, so IDs never repeat. */
  newId(prefix: string): string {
    this.state.counter += 1
    return `${prefix}_${this.state.counter.toString(36).padStart(8, '0')}`
  }

  /** `{org}` in a path: slug or public ID. */
  orgByRef(ref: string): OrgRecord | undefined {
    return this.state.orgs.find((org) => org.slug === ref || org.publicId === ref)
  }

  userById(id: string): UserRecord | undefined {
    return this.state.users.find((user) => user.id === id)
  }

  userByEmail(email: string): UserRecord | undefined {
    const wanted = email.toLowerCase()
    return this.state.users.find((user) => user.email.toLowerCase() === wanted)
  }

  orgsOf(userId: string): OrgRecord[] {
    return this.state.orgs.filter((org) => org.members.includes(userId))
  }

  /** The organization's runs, oldest first. */
  runsOf(orgId: string): Run[] {
    return this.state.runs[orgId] ?? []
  }

  findRun(id: string): RunLocation | undefined {
    return this.runIndex.get(id)
  }

  /** Appends runs (newest last), created `at` (epoch ms); `createdAt` never goes backwards within an organization. */
  addRuns(orgId: string, fields: readonly NewRun[], at: number): Run[] {
    this.state.runs[orgId] ??= []
    const runs = this.state.runs[orgId]
    const last = runs.at(-1)?.createdAt
    const now = new Date(at).toISOString()
    const createdAt = last !== undefined && last > now ? last : now
    const added = fields.map((field): Run => ({id: this.newId('run'), createdAt, ...field}))
    for (const run of added) {
      runs.push(run)
      this.index(orgId, run)
    }
    return added
  }

  /** How many resources of one collection the organization owns. */
  count(collection: OwnedCollection, orgId: string): number {
    let n = 0
    for (const owned of Object.values(this.state[collection]) as Owned<unknown>[]) if (owned.orgId === orgId) n += 1
    return n
  }

  remove(collection: OwnedCollection, id: string): void {
    delete this.state[collection][id]
  }

  /** Takes `id` out of the `member` selection of every eval set of the organization (a deleted resource leaves them). */
  deselect(orgId: string, member: 'mcpServerIds' | 'tagIds', id: string): void {
    for (const {orgId: owner, item} of Object.values(this.state.evalSets)) {
      const selected = item[member]
      if (owner === orgId && Array.isArray(selected)) item[member] = selected.filter((other) => other !== id)
    }
  }

  get<C extends OwnedCollection>(collection: C, id: string): State[C][string] | undefined {
    const records = this.state[collection]
    return Object.hasOwn(records, id) ? (records[id] as State[C][string]) : undefined
  }
}

function countKey(orgId: string, run: Triple): string {
  return `${orgId} ${tripleKey(run)}`
}
