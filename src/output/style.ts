import {Chalk, type ChalkInstance} from 'chalk'

/** A chalk instance with colour exactly when `enabled` (never from chalk's own guessing). */
export function palette(enabled: boolean): ChalkInstance {
  return new Chalk({level: enabled ? 1 : 0})
}
