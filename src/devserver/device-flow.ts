import {randomBytes, randomInt} from 'node:crypto'
import type {CliTokenDeviceStart, CliTokenGranted, CliTokenPoll} from '../contract/types.js'
import type {ApproveMode} from './options.js'
import {conflict, invalid, notFound} from './errors.js'
import type {UserRecord} from './state.js'

/** The device-authorization flow behind `POST /cli/token` (contract section 2). */

interface Grant {
  deviceCode: string
  userCode: string
  expiresAt: number
  state: 'pending' | 'approved' | 'denied'
  user: UserRecord | null
}

export interface DeviceFlowOptions {
  approve: ApproveMode
  /** seconds between polls, as told to the client */
  interval: number
  /** seconds a device code lives */
  expiresIn: number
  /** whom `--approve auto` logs in */
  autoUser: () => UserRecord | undefined
  /** creates a token for the user and answers its plaintext */
  issue: (user: UserRecord) => string
  /** the server's clock, epoch ms (DevServerOptions.now) */
  now: () => number
}

/** Letters that cannot be mistaken for one another (RFC 8628, 6.1). */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'

/** Expired grants are kept this long, so polls can still be told "expired". */
const KEEP_EXPIRED_MS = 10 * 60_000

export class DeviceFlow {
  private readonly grants = new Map<string, Grant>()

  private readonly now: () => number

  constructor(private readonly options: DeviceFlowOptions) {
    this.now = options.now
  }

  start(verificationUri: string): CliTokenDeviceStart {
    this.sweep()
    const grant: Grant = {
      deviceCode: randomBytes(24).toString('base64url'),
      userCode: newUserCode(),
      expiresAt: this.now() + this.options.expiresIn * 1000,
      state: 'pending',
      user: null,
    }
    this.grants.set(grant.deviceCode, grant)
    return {
      deviceCode: grant.deviceCode,
      userCode: grant.userCode,
      verificationUri,
      interval: this.options.interval,
      expiresIn: this.options.expiresIn,
    }
  }

  /** One poll: pending, denied, expired, or the token (once; the device code is then used up). */
  poll(deviceCode: string): CliTokenGranted | CliTokenPoll {
    const grant = this.grants.get(deviceCode)
    if (grant === undefined) throw invalid('unknown or already used device code')
    if (this.now() >= grant.expiresAt) return {status: 'expired'}
    if (grant.state === 'pending' && this.options.approve === 'auto') {
      const user = this.options.autoUser()
      if (user !== undefined) this.settle(grant, 'approved', user)
    }
    if (grant.state === 'denied') return {status: 'denied'}
    if (grant.state === 'pending' || grant.user === null) return {status: 'pending'}
    this.grants.delete(deviceCode)
    return {token: this.options.issue(grant.user)}
  }

  /** The live (unexpired, pending) grant with this user code. */
  pending(userCode: string): {userCode: string; expiresAt: number} | undefined {
    const grant = this.byUserCode(userCode)
    return grant !== undefined && grant.state === 'pending' && this.now() < grant.expiresAt ? grant : undefined
  }

  approve(userCode: string, user: UserRecord): void {
    this.settle(this.live(userCode), 'approved', user)
  }

  deny(userCode: string): void {
    this.settle(this.live(userCode), 'denied', null)
  }

  private live(userCode: string): Grant {
    const grant = this.byUserCode(userCode)
    if (grant === undefined) throw notFound(`user code "${userCode}" not found`)
    if (this.now() >= grant.expiresAt) throw invalid(`user code "${grant.userCode}" has expired`)
    if (grant.state !== 'pending') throw conflict(`user code "${grant.userCode}" was already ${grant.state}`)
    return grant
  }

  private settle(grant: Grant, state: Grant['state'], user: UserRecord | null): void {
    grant.state = state
    grant.user = user
  }

  private byUserCode(userCode: string): Grant | undefined {
    const wanted = normalizeUserCode(userCode)
    for (const grant of this.grants.values()) if (normalizeUserCode(grant.userCode) === wanted) return grant
    return undefined
  }

  private sweep(): void {
    const cutoff = this.now() - KEEP_EXPIRED_MS
    for (const [code, grant] of this.grants) if (grant.expiresAt < cutoff) this.grants.delete(code)
  }
}

function newUserCode(): string {
  const letters = Array.from({length: 8}, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)])
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`
}

function normalizeUserCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z]/g, '')
}
