import {ExitCode} from '../contract/vocabulary.js'

/**
 * What the process is told from outside while a command runs: Ctrl-C (SIGINT), a request to stop
 * (SIGTERM), and its own exit. Code that reacts to them is handed a Signals (a command's comes
 * from its world, src/base/world.ts, the one place that listens on the process); a test hands in
 * one it raises itself (test/helpers/fake-signals.ts), so no test touches the process's listeners.
 */
export type StopSignal = 'SIGINT' | 'SIGTERM'

export interface Signals {
  /** Calls `handler` on each of `signals` until the returned function is called. */
  on(signals: readonly StopSignal[], handler: (signal: StopSignal) => void): () => void
  /**
   * Calls `handler` once when the process exits (what a live view drew on the terminal is
   * erased), unless the returned function is called first.
   */
  atExit(handler: () => void): () => void
}

/**
 * How amctl says each stop signal, and the exit code it ends with: Ctrl-C 130 (contract 1.5);
 * SIGTERM, which a CI system sends to cancel or time out a job, 143 (128 + 15, the shell's
 * convention: amctl's choice, the contract names only Ctrl-C). bin/run.cjs says the same codes
 * for a signal no command listens for.
 */
export const STOP_SIGNALS: Readonly<Record<StopSignal, {words: string; exitCode: number}>> = {
  SIGINT: {words: 'Ctrl-C', exitCode: ExitCode.interrupted},
  SIGTERM: {words: 'SIGTERM', exitCode: ExitCode.terminated},
}

/** The stop signal `reason` names (an AbortController's `abort(signal)`, a report's `signal`); Ctrl-C when it names none. */
export function stopSignalOf(reason: unknown): StopSignal {
  return reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'
}
