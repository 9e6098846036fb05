/**
 * Text from a server is data, never a terminal command (contract 1.4). These functions are the
 * only way server-supplied text reaches a person, a tab-separated line or JSON output.
 */

// C0 controls, DEL and C1 controls (U+0080–U+009F, which some terminals take as CSI, OSC …), and
// what reorders or breaks a line without being one: the bidi controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069: a run name that shows reversed, or drags the text after it along)
// and the line and paragraph separators (U+2028, U+2029). Each is written as `\uXXXX`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g
// the same, but a newline is kept (a multi-line value shown as a block on a terminal)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g

function visible(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

// the same, but newlines and tabs are kept (a --jq string result: text the user asked jq for)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const CONTROLS_BUT_NEWLINE_TAB = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g

/**
 * For people: every control character written visibly as `\u00XX`, so a server cannot move the
 * cursor, set the window title or clear the screen. `multiline` keeps newlines, `tabs` tabs too
 * (neither moves more than the cursor).
 */
export function terminalSafe(text: string, opts: {multiline?: boolean; tabs?: boolean} = {}): string {
  const controls = opts.multiline ? (opts.tabs ? CONTROLS_BUT_NEWLINE_TAB : CONTROLS_BUT_NEWLINE) : CONTROLS
  return text.replace(controls, visible)
}

/**
 * For tab-separated output: one record per line, one field per tab. Backslash, tab, newline and
 * carriage return become `\\`, `\t`, `\n`, `\r`; other controls `\u00XX`.
 */
export function tsvEscape(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
  return text.replace(/[\\\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g, (c) => {
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

// JSON.stringify escapes C0 controls but writes DEL and C1 controls (U+007F–U+009F), the bidi
// controls and the line and paragraph separators raw
const RAW_IN_JSON = /[\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g

/**
 * JSON text (compact, or indented by `space`) holding no raw control character: DEL and C1, which
 * JSON.stringify leaves raw and some terminals take as CSI or OSC, and the bidi controls and
 * separators of CONTROLS become `\uXXXX` escapes, the same JSON value. For `--json` output and the compact JSON of nested values in tab-separated
 * output. They can stand only inside strings, so the whole text may be rewritten.
 */
export function safeJson(value: unknown, space?: number): string | undefined {
  return JSON.stringify(value, null, space)?.replace(RAW_IN_JSON, visible)
}

// what Markdown reads as syntax inside a line: emphasis, code, links, HTML, table cells, strike,
// the `@` of an email address (an autolink), math (`$…$`), and the start of a bare URL that GitHub
// would turn into a link (`http://`, `www.`)
const MARKDOWN_SPECIAL = /[\\`*[\]<>|~@$]|_(?![A-Za-z0-9])|(?<![A-Za-z0-9])_|:(?=\/\/)|(?<=\bwww)\./gi
// an `@` GitHub would take for the start of a mention: its mention filter runs on the rendered
// text, where `\@` is a plain `@` again, and matches `@login` and `@org/team` at the start of a text
// node or after any character but an ASCII letter, digit or `_` (so never in an email address)
const MENTION_AT = /(?<![A-Za-z0-9_])@/g
/** U+2060 WORD JOINER: shows nothing, and no login or organization starts with it. */
const WORD_JOINER = '\u2060'

/**
 * For Markdown (the CI summary): text that stays text. Backslash, backtick, `*`, `[`, `]`, `<`,
 * `>`, `|` (a table cell's edge), `~`, `@` (an email address's autolink) and `$` (GitHub renders `$…$` as math) are backslash-escaped, `_` too unless
 * it stands inside a word (`run_acme_0246` reads as it is: GitHub never takes an inner `_` for
 * emphasis), and so are the `:` of `://` and the `.` of `www.` (no bare link), `&` is `&amp;`;
 * an `@` that could start a mention (`@octocat`, `@org/team`) is also followed by U+2060 WORD
 * JOINER, so no one is linked or notified (`ada@example.com` stays as it is); then control
 * characters, newlines included, are written visibly as `\u00XX` (one line, one table cell, no
 * terminal control when the file is shown in a terminal).
 */
export function markdownText(text: string): string {
  return terminalSafe(
    text
      .replace(MENTION_AT, `@${WORD_JOINER}`)
      .replace(/&/g, '&amp;')
      .replace(MARKDOWN_SPECIAL, (c) => `\\${c}`),
  )
}

/**
 * For a GitHub Actions workflow command (`::error title=…::message`), as GitHub escapes them:
 * in the message `%`, CR and LF become `%25`, `%0D`, `%0A` (so a server's text cannot end the
 * line and start a command of its own); in a property (`title=`) `:` and `,` also become `%3A`
 * and `%2C`. Other control characters are then written visibly as `\u00XX`.
 */
export function workflowEscape(text: string, kind: 'data' | 'property'): string {
  let out = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  if (kind === 'property') out = out.replace(/:/g, '%3A').replace(/,/g, '%2C')
  return terminalSafe(out)
}

// what a code span cannot show as it is: a backtick (it would end the span), and the controls
// and separators of CONTROLS (a newline ends the line; the rest reorder or hide text)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const NOT_IN_CODE = /[`\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/

/**
 * For Markdown: a command line to paste (src/output/shell.ts shellLine) as a code span, which
 * GitHub shows as it is (no emphasis, link or mention inside it); undefined when a word holds
 * what a code span cannot show as it is (a backtick, a control character), so the caller says it
 * in words instead.
 */
export function markdownCommand(line: string): string | undefined {
  return NOT_IN_CODE.test(line) ? undefined : `\`${line}\``
}
