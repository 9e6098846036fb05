import {ApiError} from './errors.js'
import type {OrgRecord} from './state.js'

/** Gates on an organization's account state: credits, capabilities, provider key. */

export function requireCredits(org: OrgRecord): void {
  if (org.credits <= 0) {
    throw new ApiError('insufficient_credits', `organization ${org.slug} has no credits left; add credits to launch work`)
  }
}

export function requireProviderKey(org: OrgRecord): void {
  if (!org.providerKey) {
    throw new ApiError('needs_provider_key', `organization ${org.slug} has no model provider key; add one under Provider keys first`)
  }
}

export const OPTIMIZATIONS_DISABLED = 'Optimizations must be enabled for this organization to propose trials'

export function requireOptimizations(org: OrgRecord): void {
  if (!org.capabilities.optimizations) throw new ApiError('forbidden', OPTIMIZATIONS_DISABLED)
}
