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
