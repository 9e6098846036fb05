import type {Recorded} from './fake-api.js'

/**
 * A command's declared operations (`static operations`, help's REQUEST section) held to what it
 * sends: test/helpers/fake-api.ts says here what was sent (each request with the operation it
 * reached), test/helpers/cli.ts checks each command it runs. Apart from the fake API so that
 * loading cli.ts does not load the fake API (and the document's checks behind it).
 */

let sent: (() => readonly Recorded[]) | undefined

/** The fake API on in this file says how to read what was sent (undefined: it stopped). */
export function setSentRequests(requests: (() => readonly Recorded[]) | undefined): void {
  sent = requests
}

/** The requests the fake API recorded so far (none when it is off). */
export function sentRequests(): readonly Recorded[] {
  return sent?.() ?? []
}

/** A command class as test/helpers/cli.ts runs it: what it declares it sends. */
export interface DeclaringCommand {
  name: string
  operations?: readonly string[]
  /** `amctl api`: sends whatever request the user names */
  anyRequest?: boolean
  baseFlags?: Record<string, unknown>
  flags?: Record<string, unknown>
}

/**
 * The operations of `requests` that `Cmd` does not declare in `static operations`, as one line
 * each. GET /me is the organization's resolution (src/base/context.ts) when the command takes --org.
 */
export function undeclaredOperations(Cmd: DeclaringCommand, requests: readonly Recorded[]): string[] {
  if (Cmd.anyRequest) return []
  const takesOrg = Cmd.baseFlags?.org !== undefined || Cmd.flags?.org !== undefined
  const declared = new Set([...(Cmd.operations ?? []), ...(takesOrg ? ['getMe'] : [])])
  const undeclared = requests.filter((req) => req.operation !== undefined && !declared.has(req.operation))
  return [
    ...new Set(
      undeclared.map(
        (req) => `${Cmd.name} sent ${req.operation} (${req.method} ${req.path.split('?')[0]}), which its static operations do not declare`,
      ),
    ),
  ]
}
