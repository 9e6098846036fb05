import type {IO} from './io.js'

/** Can we ask the user something? Both stdin and stderr must be terminals. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stderrIsTTY
}

/** Asks `question (y/N)` on stderr and reads one line from stdin; only y/yes confirms. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  io.stderr.write(`${question} (y/N) `)
  const {createInterface} = await import('node:readline')
  const rl = createInterface({input: io.stdin, terminal: false})
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve)
      rl.once('close', () => resolve(''))
    })
    return /^\s*y(es)?\s*$/i.test(answer)
  } finally {
    rl.close()
  }
}
