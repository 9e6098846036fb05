import type {OrgRef} from '../contract/types.js'
import type {OrgRecord, UserRecord} from './state.js'

/** Records as the API shows them. */

export function orgRef(org: OrgRecord): OrgRef {
  return {slug: org.slug, publicId: org.publicId, name: org.name}
}

export function userRef(user: UserRecord): UserRecord {
  return {id: user.id, email: user.email, name: user.name}
}
