/**
 * Text from a server is data, never a terminal command (contract 1.4). These functions are the
 * only way server-supplied text reaches a person, a tab-separated line or JSON output.
 */

// C0 controls, DEL and C1 controls (U+0080–U+009F, which some terminals take as CSI, OSC …)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g
// the same, but a newline is kept (a multi-line value shown as a block on a terminal)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g

function visible(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/**
 * For people: every control character written visibly as `\u00XX`, so a server cannot move the
 * cursor, set the window title or clear the screen. `multiline` keeps newlines.
 */
export function terminalSafe(text: string, opts: {multiline?: boolean} = {}): string {
  return text.replace(opts.multiline ? CONTROLS_BUT_NEWLINE : CONTROLS, visible)
}

/**
 * For tab-separated output: one record per line, one field per tab. Backslash, tab, newline and
 * carriage return become `\\`, `\t`, `\n`, `\r`; other controls `\u00XX`.
 */
export function tsvEscape(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
  return text.replace(/[\\\u0000-\u001F\u007F-\u009F]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\\\'
      case '\t':
        return '\\t'
      case '\n':
        return '\\n'
      case '\r':
        return '\\r'
      default:
        return visible(c)
    }
  })
}

// JSON.stringify escapes C0 controls but writes DEL and C1 controls (U+007F–U+009F) raw
const RAW_IN_JSON = /[\u007F-\u009F]/g

/**
 * JSON text (compact, or indented by `space`) holding no raw control character: DEL and C1, which
 * JSON.stringify leaves raw and some terminals take as CSI or OSC, become `\u00XX` escapes, the
 * same JSON value. For `--json` output and the compact JSON of nested values in tab-separated
 * output. They can stand only inside strings, so the whole text may be rewritten.
 */
export function safeJson(value: unknown, space?: number): string | undefined {
  return JSON.stringify(value, null, space)?.replace(RAW_IN_JSON, visible)
}
