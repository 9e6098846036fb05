import {DEVICE_INTERVAL, isTokenForm} from '../contract/vocabulary.js'
import type {Clock} from '../core/clock.js'
import {AmctlError, BadResponseError, ExitCode, isAmctlError} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {pollCliLogin, startCliLogin, type CliTokenAnswer} from './auth.js'

/**
 * The `auth login` bootstrap of cli-contract.md section 2: `POST /cli/token` with `{}` and no
 * Authorization header answers either a token at once, or a device code to approve in a
 * browser while we poll.
 */

export interface DeviceFlowHooks {
  /** Shows the code and URL to the user (stderr). */
  prompt(userCode: string, verificationUri: string): void
  /** Opens the URL in a browser, when that is allowed. */
  openBrowser?(url: string): void
  /** the clock the polls wait by, and the code's expiry is measured on */
  clock: Pick<Clock, 'now' | 'sleep'>
}

/** Seconds between polls (contract 2): 5 when absent, a value outside 1–60 taken as the nearest bound. */
export function pollInterval(interval: unknown): number {
  if (typeof interval !== 'number' || !Number.isFinite(interval)) return DEVICE_INTERVAL.default
  return Math.min(DEVICE_INTERVAL.max, Math.max(DEVICE_INTERVAL.min, interval))
}
/** Polls that may fail in a row (network, 5xx, no answer) before the login gives up. */
export const MAX_POLL_FAILURES = 5

/** A poll only asks "approved yet?": a failed one is simply asked again at the next interval. */
function isTransientPollFailure(error: unknown): boolean {
  return isAmctlError(error) && (error.code === 'network_error' || error.code === 'outcome_unknown' || (error.status ?? 0) >= 500)
}

function loginFailed(message: string): AmctlError {
  return new AmctlError(message, {code: 'unauthorized', exitCode: ExitCode.auth})
}

function grantedToken(answer: CliTokenAnswer): string | undefined {
  if (answer.token === undefined) return undefined
  if (typeof answer.token !== 'string' || !isTokenForm(answer.token)) {
    throw new BadResponseError('the server sent a token that is not of the form svc_…')
  }
  return answer.token
}

function describe(answer: CliTokenAnswer): string {
  const members = Object.keys(answer)
  return members.length === 0 ? 'an empty object' : `members ${members.map((m) => `"${m}"`).join(', ')}`
}

export async function obtainToken(client: HttpClient, hooks: DeviceFlowHooks): Promise<string> {
  const first = await startCliLogin(client)
  const immediate = grantedToken(first)
  if (immediate) return immediate

  const {deviceCode, userCode, verificationUri} = first
  if (typeof deviceCode !== 'string' || typeof userCode !== 'string' || typeof verificationUri !== 'string') {
    throw new BadResponseError(
      `POST /cli/token answered neither a token nor a device code (deviceCode, userCode, verificationUri): got ${describe(first)}`,
    )
  }
  const intervalS = pollInterval(first.interval)
  const deadline = typeof first.expiresIn === 'number' && first.expiresIn > 0 ? hooks.clock.now() + first.expiresIn * 1000 : undefined

  hooks.prompt(userCode, verificationUri)
  hooks.openBrowser?.(verificationUri)

  let waitMs = intervalS * 1000
  let failures = 0
  for (;;) {
    // never past the code's expiry: a 60 s interval on a code valid 5 s gives up after 5 s
    await hooks.clock.sleep(deadline === undefined ? waitMs : Math.min(waitMs, Math.max(0, deadline - hooks.clock.now())))
    if (deadline !== undefined && hooks.clock.now() >= deadline) {
      throw loginFailed('the device code expired before the login was approved; run `amctl auth login` again')
    }
    let answer: CliTokenAnswer
    try {
      answer = await pollCliLogin(client, deviceCode)
      failures = 0
    } catch (error) {
      if (!isTransientPollFailure(error)) throw error
      if (++failures < MAX_POLL_FAILURES) continue
      // the last failure's own message (a server's, unchanged under --json), after what amctl was doing
      throw new AmctlError((error as AmctlError).message, {
        code: 'network_error',
        exitCode: ExitCode.failure,
        context: {text: `polling for the login approval failed ${failures} times in a row`, names: []},
      })
    }
    const token = grantedToken(answer)
    if (token) return token
    switch (answer.status as string | undefined) {
      case 'pending':
        continue
      case 'slow_down':
        waitMs += 5000
        continue
      case 'denied':
        throw loginFailed('the login was denied')
      case 'expired':
        throw loginFailed('the device code expired before the login was approved; run `amctl auth login` again')
      default:
        throw new BadResponseError(`unexpected answer while polling POST /cli/token: ${describe(answer)}`)
    }
  }
}
