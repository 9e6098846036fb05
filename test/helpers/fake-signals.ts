import type {Signals, StopSignal} from '../../src/core/signals.js'

/**
 * Signals a test raises itself (a command's world's, src/core/signals.ts): `raise('SIGINT')` is
 * Ctrl-C reaching the command's listeners and no one else's; `exit()` runs what would run as the
 * process exits. `listening` and `exitHandlers` say what is still subscribed, so a test can check
 * nothing outlives the command.
 */
export interface FakeSignals extends Signals {
  raise(signal: StopSignal): void
  exit(): void
  /** how many handlers listen for `signal` now */
  listening(signal: StopSignal): number
  /** how many handlers would run at exit now */
  exitHandlers(): number
}

export function fakeSignals(): FakeSignals {
  const handlers = new Set<{signals: readonly StopSignal[]; handler: (signal: StopSignal) => void}>()
  const atExit = new Set<{handler: () => void}>()
  return {
    on(signals, handler) {
      const entry = {signals, handler}
      handlers.add(entry)
      return () => {
        handlers.delete(entry)
      }
    },
    atExit(handler) {
      const entry = {handler}
      atExit.add(entry)
      return () => {
        atExit.delete(entry)
      }
    },
    raise(signal) {
      for (const entry of [...handlers]) if (entry.signals.includes(signal)) entry.handler(signal)
    },
    exit() {
      const pending = [...atExit]
      atExit.clear()
      for (const entry of pending) entry.handler()
    },
    listening: (signal) => [...handlers].filter((entry) => entry.signals.includes(signal)).length,
    exitHandlers: () => atExit.size,
  }
}
