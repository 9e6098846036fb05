import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {toAmctlError} from '../base-command.js'
import {jsonText} from '../output/format.js'
import {io} from '../output/io.js'

/**
 * Errors that reach bin/run.js. A command has already reported its own error and thrown
 * oclif's ExitError carrying the code; anything else (an unknown command, a failure before a
 * command ran) is reported here, the contract's way.
 */
export async function exitCodeOf(error: unknown, argv: string[]): Promise<number> {
  const e = error as {code?: string; oclif?: {exit?: number}}
  if (e?.code === 'EEXIT' && typeof e.oclif?.exit === 'number') return e.oclif.exit
  const failure = toAmctlError(error)
  const notFound = /^command (.+) not found$/.exec(failure.message)
  if (notFound) {
    const wanted = notFound[1].replaceAll(':', ' ')
    const near = closestCommand(wanted)
    failure.message = `unknown command "${wanted}"`
    failure.hint = near ? `did you mean \`amctl ${near}\`? (see \`amctl --help\`)` : 'see `amctl --help` for the commands'
  }
  const out = io()
  if (argv.includes('--json')) {
    out.stdout.write(jsonText(failure.toDocument(), out.stdoutIsTTY))
  } else {
    out.stderr.write(`${failure.toLine()}\n`)
    if (failure.hint) out.stderr.write(`hint: ${failure.hint}\n`)
  }
  if (process.env.AMCTL_DEBUG === '1' && error instanceof Error && error.stack) out.stderr.write(`${error.stack}\n`)
  return failure.exitCode
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

/** oclif.manifest.json of the package this module was built into (found upwards from here). */
function manifestPath(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'oclif.manifest.json')
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** The command id (space-separated) nearest to `wanted`, when one is close enough. */
function closestCommand(wanted: string): string | undefined {
  try {
    const path = manifestPath()
    if (!path) return undefined
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as {
      commands: Record<string, unknown>
    }
    let best: {id: string; d: number} | undefined
    for (const id of Object.keys(manifest.commands)) {
      const name = id.replaceAll(':', ' ')
      const d = distance(wanted, name)
      if (!best || d < best.d) best = {id: name, d}
    }
    return best && best.d <= Math.max(2, Math.floor(wanted.length / 3)) ? best.id : undefined
  } catch {
    return undefined
  }
}
