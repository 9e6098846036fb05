import type {Hook} from '@oclif/core'
import {UsageError} from '../core/errors.js'

/**
 * An unknown command (oclif's `command_not_found` hook): its usage error reaches bin/run.cjs,
 * which ends it as every failure ends (./failure.ts).
 */

/** `command_not_found`: exit 2 with "did you mean" from the commands oclif knows. */
export const commandNotFound: Hook<'command_not_found'> = async ({id, config}) => {
  const wanted = id.replaceAll(':', ' ')
  const near = closest(
    wanted,
    [...config.commandIDs, ...config.topics.map((t) => t.name)].map((c) => c.replaceAll(':', ' ')),
  )
  throw new UsageError(
    `unknown command "${wanted}"`,
    near ? `did you mean \`amctl ${near}\`? (see \`amctl --help\`)` : 'see `amctl --help` for the commands',
  )
}

function distance(a: string, b: string): number {
  const row = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = current
    }
  }
  return row[b.length]
}

/** The candidate nearest to `wanted`, when one is close enough. */
export function closest(wanted: string, candidates: string[]): string | undefined {
  let best: {id: string; d: number} | undefined
  for (const id of candidates) {
    const d = distance(wanted, id)
    if (!best || d < best.d) best = {id, d}
  }
  return best && best.d <= Math.max(2, Math.floor(wanted.length / 3)) ? best.id : undefined
}
