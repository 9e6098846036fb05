/**
 * The few styles amctl uses. Without colour they are plain functions, so chalk is imported
 * only by a command that will actually colour something (`loadColors` in the base command).
 */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  yellow(text: string): string
  underline(text: string): string
}

const same = (text: string): string => text
const PLAIN: Style = {bold: same, dim: same, red: same, yellow: same, underline: same}

let chalk: typeof import('chalk') | undefined

export async function loadColors(): Promise<void> {
  chalk ??= await import('chalk')
}

/** Colour exactly when `enabled` (never from chalk's own guessing). */
export function palette(enabled: boolean): Style {
  return enabled && chalk ? new chalk.Chalk({level: 1}) : PLAIN
}
