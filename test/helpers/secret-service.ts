import type {AsyncEntry} from '@napi-rs/keyring'
import {harness, joinKeychainSession} from './env.js'

// The one probe of the real keychain that the keychain suites share (test/e2e/keychain.test.ts,
// test/release/smoke.test.ts). It is pinned to the Secret Service (gnome-keyring, KWallet …):
// without one, @napi-rs/keyring falls back to the kernel's keyring, which would let a keychain
// test pass without the keychain users have. Each probe uses an account of its own (process and
// attempt), because the suites run in parallel workers against one Secret Service: a shared probe
// entry let one worker delete what the other had just stored.

export type SecretServiceEntry = (service: string, account: string) => AsyncEntry

export interface SecretService {
  /** An entry in the Secret Service; undefined when none answered. */
  entry?: SecretServiceEntry
  /** Why the Secret Service is not usable here; undefined when it is. */
  problem?: string
}

/** Whether the run demands a keychain (set by .ci/run inside dbus-run-session): then a missing one is a failure. */
export const keychainRequired = harness.requireKeychain

let attempts = 0

async function probeOnce(): Promise<SecretService> {
  try {
    const {AsyncEntry} = await import('@napi-rs/keyring')
    const entry: SecretServiceEntry = (service, account) => new AsyncEntry(service, account, {linux: {store: 'secret-service'}})
    const secret = `probe-${process.pid}-${++attempts}`
    const probe = entry('amctl-probe', secret)
    const round = (async (): Promise<SecretService> => {
      await probe.setPassword(secret)
      const back = await probe.getPassword()
      await probe.deletePassword()
      return back === secret ? {entry} : {problem: 'the Secret Service did not return what was stored'}
    })()
    const limit = new Promise<SecretService>((resolve) =>
      setTimeout(() => resolve({problem: 'no answer from the Secret Service within 3 s'}), 3000).unref(),
    )
    return await Promise.race([round, limit])
  } catch (error) {
    return {problem: String((error as Error).message ?? error).split('\n')[0]}
  }
}

/**
 * Probes the Secret Service. When the run requires a keychain, a failed probe is asked again for
 * about five seconds: a daemon started just before may not own its D-Bus name yet.
 */
export async function probeSecretService(): Promise<SecretService> {
  joinKeychainSession()
  let result = await probeOnce()
  for (let tries = 0; result.problem !== undefined && keychainRequired && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    result = await probeOnce()
  }
  return result
}
