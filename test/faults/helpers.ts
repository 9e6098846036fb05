import {createServer as createNetServer} from 'node:net'
import type {AddressInfo} from 'node:net'
import {expect} from 'vitest'
import type {E2E} from '../e2e/helpers.js'
import type {BinResult} from '../helpers/bin.js'

/** Shared checks of the reliability suite: what a failed command may and may not print. */

/** A stack-trace frame ("    at fn (file:1:2)"): never shown unless AMCTL_DEBUG=1. */
export const STACK_FRAME = /^\s+at\s/m

/** The non-empty lines of a stream. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '')
}

/**
 * A failure the contract's way (1.5): the given exit code, no stack trace, no "unexpected
 * failure", nothing on stdout, and on stderr exactly one `error: …` line, optionally followed by
 * one `hint: …` line. Returns the error line.
 */
export function expectOneErrorLine(r: BinResult, exit: number): string {
  const context = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`
  expect(r.signal, context).toBeNull()
  expect(r.stderr, context).not.toMatch(STACK_FRAME)
  expect(r.stderr, context).not.toContain('unexpected failure')
  const err = lines(r.stderr)
  expect(err.length, context).toBeGreaterThanOrEqual(1)
  expect(err[0], context).toMatch(/^error: \S/)
  expect(err.slice(1).every((line) => line.startsWith('hint: ')) && err.length <= 2, context).toBe(true)
  expect(r.stdout, context).toBe('')
  expect(r.exitCode, context).toBe(exit)
  return err[0]
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** The org's run count as the dev server knows it. */
export async function runCount(e2e: E2E, org: string): Promise<number> {
  return ((await e2e.hook('GET', `/_dev/orgs/${org}`)) as {runCount: number}).runCount
}

/** Every run ID of the org, newest first, walked by the test itself straight from the API (no CLI). */
export async function serverWalk(e2e: E2E, org: string, pageSize = 200): Promise<string[]> {
  const token = await e2e.token('ada')
  const ids: string[] = []
  let cursor: string | undefined
  for (let page = 0; page < 10_000; page++) {
    const query = new URLSearchParams({limit: String(pageSize), ...(cursor === undefined ? {} : {cursor})})
    const res = await fetch(`${e2e.url}/api/v1/orgs/${org}/runs?${query}`, {headers: {authorization: `Bearer ${token}`}})
    if (!res.ok) throw new Error(`server walk: HTTP ${res.status} ${await res.text()}`)
    const body = (await res.json()) as {items: Array<{id: string}>; nextCursor?: string | null}
    ids.push(...body.items.map((run) => run.id))
    if (!body.nextCursor) return ids
    cursor = body.nextCursor
  }
  throw new Error('server walk did not end')
}

export function round(ms: number): number {
  return Math.round(ms)
}
