import {type Clock, systemClock} from '../core/clock.js'
import type {RawResponse, Attempt, Transport} from '../core/http/attempt.js'
import type {Signals} from '../core/signals.js'
import {type IO, systemIO} from '../output/io.js'

/**
 * What a run takes from the machine, as gh's commands take their Factory's fields: the streams,
 * the environment, the clock (monotonic time, the time of day and sleeps), the signals the
 * process is sent, and the transport requests go out through. A command's world is made here,
 * the one place in src/ that reads process.env, chooses the system clock and listens on the
 * process (the entry points in bin/ and `__complete`, which run no command, read their own); and
 * everything below is handed what it needs of it as parameters. A test hands a command a world
 * of its own (test/helpers/cli.ts): fake streams, a sealed environment, a fake clock, signals it
 * raises, and the fake API as the transport. test/layers.test.ts holds src/ to it.
 */
export interface World {
  io: IO
  env: NodeJS.ProcessEnv
  clock: Clock
  signals: Signals
  /** how requests reach a server: the network, through the proxies `env` names */
  transport: Transport
}

let system: World | undefined

/** The process's world: its streams, environment, clock, signals and network (made once: one set of streams per process). */
export function systemWorld(): World {
  system ??= {io: systemIO(process.env), env: process.env, clock: systemClock, signals: processSignals, transport: network(process.env)}
  return system
}

/** The process's own signals and exit. */
const processSignals: Signals = {
  on(signals, handler) {
    for (const signal of signals) process.on(signal, handler)
    return () => {
      for (const signal of signals) process.off(signal, handler)
    }
  },
  atExit(handler) {
    process.once('exit', handler)
    return () => {
      process.off('exit', handler)
    }
  },
}

/**
 * The network (src/core/http/transport.ts), loaded with the first request: a command that sends
 * none never loads the HTTP modules.
 */
function network(env: NodeJS.ProcessEnv): Transport {
  let loaded: Promise<Transport> | undefined
  const transport = (): Promise<Transport> => {
    loaded ??= import('../core/http/transport.js').then(({networkTransport}) => networkTransport(env))
    return loaded
  }
  return {
    send: async (attempt: Attempt): Promise<RawResponse> => (await transport()).send(attempt),
    close: async () => {
      if (loaded) await (await loaded).close()
    },
  }
}
