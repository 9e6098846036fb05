import type {Run} from '../contract/types.js'
import type {RunLifecycle} from './runs.js'
import type {OrgRecord, Owned, State} from './state.js'

/** The IDs a newcomer needs to try each command, per organization: what the start-up banner lists. */
export interface OrgCatalog {
  slug: string
  publicId: string
  name: string
  /** whether the organization has the Optimizations capability (propose works) */
  optimizationsEnabled: boolean
  evalSets: string[]
  connections: string[]
  /** the newest few, as they stand now */
  runs: Pick<Run, 'id' | 'status'>[]
  prompts: {id: string; kind: string}[]
  experiments: {id: string; status: string; variants: string[]}[]
  optimizations: string[]
  mcpServers: {id: string; name: string}[]
  tags: {id: string; name: string}[]
}

const NEWEST_RUNS = 3

export function catalog(state: State, runs: RunLifecycle): OrgCatalog[] {
  return state.orgs.map((org) => {
    const own = <T>(records: Record<string, Owned<T>>): T[] => ownedBy(org, records)
    return {
      slug: org.slug,
      publicId: org.publicId,
      name: org.name,
      optimizationsEnabled: org.capabilities.optimizations,
      evalSets: own(state.evalSets).map((item) => item.id),
      connections: own(state.connections).map((item) => item.id),
      runs: (state.runs[org.publicId] ?? [])
        .slice(-NEWEST_RUNS)
        .reverse()
        .map((run) => {
          const {id, status} = runs.view(state, run)
          return {id, status}
        }),
      prompts: own(state.visibilityPrompts).map(({id, kind}) => ({id, kind})),
      experiments: own(state.experiments).map(({id, status, variantIds}) => ({id, status, variants: [...variantIds]})),
      optimizations: own(state.optimizations).map((item) => item.id),
      mcpServers: own(state.mcpServers).map(({id, name}) => ({id, name})),
      tags: own(state.tags).map(({id, name}) => ({id, name})),
    }
  })
}

function ownedBy<T>(org: OrgRecord, records: Record<string, Owned<T>>): T[] {
  return Object.values(records)
    .filter((owned) => owned.orgId === org.publicId)
    .map((owned) => owned.item)
}
