import {type Clock, systemClock} from '../core/clock.js'
import {type IO, systemIO} from '../output/io.js'

/**
 * What a run takes from the world, as gh's commands take their Factory's fields: the streams, the
 * environment and the clock. A command's is made here, the one place in src/ that reads
 * process.env (the entry points in bin/ and `__complete`, which run no command, read their own),
 * and everything below is handed what it needs of it as parameters; a test hands a command a
 * world of its own (test/helpers/cli.ts).
 */
export interface World {
  io: IO
  env: NodeJS.ProcessEnv
  clock: Clock
}

let system: World | undefined

/** The process's world: its streams, its environment and the system clock (made once: one set of streams per process). */
export function systemWorld(): World {
  system ??= {io: systemIO(process.env), env: process.env, clock: systemClock}
  return system
}
