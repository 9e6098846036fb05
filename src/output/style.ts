/**
 * The few styles amctl uses. Without colour they are plain functions, so chalk is imported
 * only by a command that will actually colour something (`loadColors` in the base command).
 */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  blue(text: string): string
  cyan(text: string): string
  underline(text: string): string
}

const same = (text: string): string => text
export const PLAIN: Style = {bold: same, dim: same, red: same, green: same, yellow: same, blue: same, cyan: same, underline: same}

let chalk: typeof import('chalk') | undefined

export async function loadColors(): Promise<void> {
  chalk ??= await import('chalk')
}

/** Colour exactly when `enabled` (never from chalk's own guessing). */
export function palette(enabled: boolean): Style {
  return enabled && chalk ? new chalk.Chalk({level: 1}) : PLAIN
}

/** The colour of a run status: green succeeded, red failed, yellow queued/running, dim cancelled. */
export function statusColour(status: string, style: Style): (text: string) => string {
  switch (status) {
    case 'succeeded':
      return style.green
    case 'failed':
      return style.red
    case 'queued':
    case 'running':
      return style.yellow
    case 'cancelled':
      return style.dim
    default:
      return (text) => text
  }
}
