import type {Attempt, RawResponse, Transport} from '../../src/core/http/attempt.js'

/**
 * The transport of a test file's commands (test/helpers/cli.ts): the file's fake API once
 * `useFakeApi` started it (./fake-api.ts), else none. Apart from the fake API so that loading
 * cli.ts does not load it (and the document's checks behind it).
 */
let current: Transport | undefined

/** The fake API on in this file says how its requests are answered (undefined: it stopped). */
export function setFileTransport(transport: Transport | undefined): void {
  current = transport
}

/** The file's fake API's transport, if one is on. */
export function fileTransport(): Transport | undefined {
  return current
}

/**
 * The transport of a command in a file without a fake API, when the test gave none: nothing is
 * sent; each attempt is kept, and test/helpers/cli.ts fails the test that made one.
 */
export function noTransport(): Transport & {attempts: string[]} {
  const attempts: string[] = []
  return {
    attempts,
    send(attempt: Attempt): Promise<RawResponse> {
      attempts.push(`${attempt.method} ${attempt.url}`)
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND (no fake API in this test file for ${attempt.method} ${attempt.url})`), {
          code: 'ENOTFOUND',
        }),
      )
    },
    close: async () => {},
  }
}
