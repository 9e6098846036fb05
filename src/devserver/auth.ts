import {createHash, randomBytes} from 'node:crypto'
import {TOKEN_PREFIX} from '../contract/vocabulary.js'
import type {AuthedContext, Principal} from './context.js'
import {forbidden, notFound, unauthorized} from './errors.js'
import type {OrgRecord, Owned, OwnedCollection, State, TokenRecord} from './state.js'
import type {Store} from './store.js'

/** Authentication (bearer tokens, stored as hashes) and membership (checked on every request). */

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Creates a token for a user at `now` (the server's clock, epoch ms); the plaintext is returned once and only its hash is kept. */
export function mintToken(
  store: Store,
  userId: string,
  name: string,
  expiresAt: string | null,
  now: number,
): {token: string; record: TokenRecord} {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
  const record: TokenRecord = {
    id: store.newId('tok'),
    name,
    userId,
    hash: hashToken(token),
    createdAt: new Date(now).toISOString(),
    expiresAt,
  }
  store.state.tokens[record.hash] = record
  return {token, record}
}

const BEARER = /^Bearer\s+(\S+)\s*$/i

/** The user `header`'s token authenticates as, at `now` (the server's clock: an expired token is refused). */
export function authenticate(store: Store, header: string | undefined, now: number): Principal {
  if (header === undefined || header.trim() === '') {
    throw unauthorized(`missing token: send "Authorization: Bearer ${TOKEN_PREFIX}…"`)
  }
  const token = BEARER.exec(header)?.[1]
  if (token === undefined || !token.startsWith(TOKEN_PREFIX) || token.length <= TOKEN_PREFIX.length) {
    throw unauthorized(`malformed Authorization header: expected "Bearer ${TOKEN_PREFIX}…"`)
  }
  const record = store.state.tokens[hashToken(token)]
  if (record === undefined) throw unauthorized('invalid or revoked token')
  if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now) throw unauthorized('token expired')
  const user = store.userById(record.userId)
  if (user === undefined) throw unauthorized('invalid or revoked token')
  if (store.orgsOf(user.id).length === 0) throw unauthorized(`${user.email} is not a member of any organization`)
  return {user, token: record}
}

/** `{org}` (slug or public ID): 404 when it does not exist, 403 when the caller is not a member. */
export function requireOrg(ctx: AuthedContext, ref: string | undefined = ctx.params.org): OrgRecord {
  const org = ref === undefined ? undefined : ctx.services.store.orgByRef(ref)
  if (org === undefined) throw notFound(`organization "${ref}" not found`)
  requireMember(ctx, org)
  return org
}

export function requireMember(ctx: AuthedContext, org: OrgRecord): void {
  if (!org.members.includes(ctx.principal.user.id)) {
    throw forbidden(`${ctx.principal.user.email} is not a member of organization ${org.slug}`)
  }
}

export type ItemOf<C extends OwnedCollection> = State[C][string] extends Owned<infer T> ? T : never

/** A resource of `org`: 404 when no such resource exists, 403 when another organization owns it. */
export function ownedItem<C extends OwnedCollection>(store: Store, collection: C, kind: string, id: string, org: OrgRecord): ItemOf<C> {
  const owned = store.get(collection, id) as Owned<ItemOf<C>> | undefined
  if (owned === undefined) throw notFound(`${kind} "${id}" not found`)
  if (owned.orgId !== org.publicId) throw forbidden(`${kind} "${id}" belongs to another organization`)
  return owned.item
}
