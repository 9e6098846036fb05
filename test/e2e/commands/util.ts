import {afterEach, expect} from 'vitest'
import type {BinResult} from '../../helpers/bin.js'
import type {E2E} from '../helpers.js'

/** Small assertions shared by the end-to-end command tests (not a test file itself). */

export const API = '/api/v1'

/** The lines of an output, without the final newline. */
export function lines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n')
}

/**
 * A summary line without the time the wait took (` (0s)` at its end): a loaded machine can take
 * a second for the one poll of runs already finished, and the line is the same otherwise.
 */
export function untimed(line: string | undefined): string | undefined {
  return line?.replace(/ \((\d+h )?(\d+m )?\d+s\)$/, '')
}

/** stdout is exactly one compact JSON document (one line) and nothing else; returns it. */
export function jsonDoc(result: BinResult): any {
  expect(result.stdout.endsWith('\n'), `stdout ends with one newline: ${JSON.stringify(result.stdout)}`).toBe(true)
  expect(lines(result.stdout), 'one compact JSON document').toHaveLength(1)
  return JSON.parse(result.stdout)
}

/** Piped output carries no colour anywhere. */
export function expectNoColour(result: BinResult): void {
  expect(result.stdout).not.toMatch(/\u001b\[/)
  expect(result.stderr).not.toMatch(/\u001b\[/)
}

/** A success: exit 0, no colour, stderr exactly `stderr` (default: nothing). */
export function expectOk(result: BinResult, stderr: string | RegExp = ''): void {
  expect(result.exitCode, `exit code; stderr: ${result.stderr}`).toBe(0)
  if (typeof stderr === 'string') expect(result.stderr).toBe(stderr)
  else expect(result.stderr).toMatch(stderr)
  expectNoColour(result)
}

/**
 * A failure in human mode: nothing on stdout, `error: <message> (<code>[, HTTP <status>])` as
 * the first stderr line, at most one `hint:` line after it, and the exit code.
 */
export function expectError(result: BinResult, exit: number, code: string, status?: number): string {
  expect(result.exitCode, `exit code; stderr: ${result.stderr}`).toBe(exit)
  expect(result.stdout).toBe('')
  const [first, ...rest] = lines(result.stderr)
  const suffix = status === undefined ? ` (${code})` : ` (${code}, HTTP ${status})`
  expect(first.startsWith('error: '), first).toBe(true)
  expect(first.endsWith(suffix), `${first} ends with ${suffix}`).toBe(true)
  expect(rest.length).toBeLessThanOrEqual(1)
  if (rest.length === 1) expect(rest[0]).toMatch(/^hint: /)
  expect(result.stderr).not.toMatch(/\n\s+at /) // no stack trace
  expectNoColour(result)
  return first.slice('error: '.length, first.length - suffix.length)
}

/** A failure in --json mode: the error document is the only thing on stdout, stderr empty. */
export function expectJsonError(
  result: BinResult,
  exit: number,
  code: string,
  status?: number,
): {code: string; message: string; status?: number} {
  expect(result.exitCode, `exit code; stdout: ${result.stdout}`).toBe(exit)
  expect(result.stderr).toBe('')
  const doc = jsonDoc(result)
  expect(Object.keys(doc)).toEqual(['error'])
  expect(doc.error.code).toBe(code)
  if (status === undefined) expect(doc.error).not.toHaveProperty('status')
  else expect(doc.error.status).toBe(status)
  return doc.error
}

/** "METHOD path?query" of every API request the dev server saw since the last clear. */
export async function seen(e2e: E2E): Promise<string[]> {
  return (await e2e.requests()).map((r) => `${r.method} ${r.path}`)
}

/** Runs `fn` with a cleared request log and returns the requests it caused. */
export async function requestsOf<T>(e2e: E2E, fn: () => Promise<T>): Promise<[T, string[]]> {
  await e2e.clearRequests()
  const value = await fn()
  return [value, await seen(e2e)]
}

/**
 * Runs independent invocations at once (the suite is CPU-bound on subprocess start-up) and
 * returns their results with the requests they caused together, sorted (their order is not
 * defined). Compare with `sorted([...])`.
 */
export async function requestsOfAll<T>(e2e: E2E, fns: Array<() => Promise<T>>): Promise<[T[], string[]]> {
  await e2e.clearRequests()
  const values = await Promise.all(fns.map((fn) => fn()))
  return [values, sorted(await seen(e2e))]
}

export const sorted = (items: string[]): string[] => [...items].sort()

/** Direct HTTP to the dev server (the test's oracle, not the system under test). */
export async function direct(
  e2e: E2E,
  method: string,
  path: string,
  who: 'ada' | 'grace' = 'ada',
  body?: unknown,
): Promise<{status: number; body: any}> {
  const res = await fetch(`${e2e.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${await e2e.token(who)}`, ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {status: res.status, body: await res.json()}
}

/**
 * The dev server's outcome plans of one eval set (`POST /_dev/orgs/:org/outcomes`): `plan(body)`
 * plans how the next launched runs end; after each test the plans (and any fault) are removed.
 */
export function useOutcomePlans(e2e: {current: E2E}, org: string, evalSetId: string): (body: Record<string, unknown>) => Promise<unknown> {
  afterEach(async () => {
    await e2e.current.hook('DELETE', `/_dev/orgs/${org}/outcomes`)
    await e2e.current.clearFaults()
  })
  return (body) => e2e.current.hook('POST', `/_dev/orgs/${org}/outcomes`, {evalSetId, ...body})
}
