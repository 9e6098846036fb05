import {describe, expect, it} from 'vitest'
import {safeJson, terminalSafe, tsvEscape, markdownText, workflowEscape} from '../../src/output/sanitize.js'
import {githubMentions, shownText} from '../helpers/github-mentions.js'

// Server text is data (contract 1.4): no control character reaches a terminal or breaks a TSV record.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

describe('terminalSafe', () => {
  it('writes escape sequences, C1 controls and DEL visibly as \\u00XX', () => {
    expect(terminalSafe('a\u001b]0;title\u0007b')).toBe('a\\u001b]0;title\\u0007b')
    expect(terminalSafe('\u009b2J\u007f')).toBe('\\u009b2J\\u007f')
    expect(terminalSafe('tab\there')).toBe('tab\\u0009here')
  })

  it('a newline is written visibly on one line, kept with multiline', () => {
    expect(terminalSafe('one\ntwo')).toBe('one\\u000atwo')
    expect(terminalSafe('one\ntwo\r\u001b[2J', {multiline: true})).toBe('one\ntwo\\u000d\\u001b[2J')
  })

  it('leaves printable text, Unicode included, as it is', () => {
    const text = 'Zoë — 日本語 ✓ emoji 🚀 "quotes" \\back'
    expect(terminalSafe(text)).toBe(text)
  })

  it('never lets a control character through, for any code point below U+00A0', () => {
    const all = Array.from({length: 0xa0}, (_, i) => String.fromCharCode(i)).join('')
    expect(terminalSafe(all)).not.toMatch(RAW_CONTROL)
    expect(terminalSafe(all)).not.toContain('\n')
  })
})

// the bidi controls (Unicode's Bidi_Control) and the line and paragraph separators
const BIDI_AND_SEPARATORS = [
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u2028',
  '\u2029',
]
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

describe('bidi controls and line/paragraph separators, everywhere a person or a line reads them', () => {
  it.each(BIDI_AND_SEPARATORS.map((c) => [escaped(c), c]))('%s is written visibly', (shown, c) => {
    // a run name that would show as "run_1 gpj.exe" reversed, and one that breaks a line
    const text = `run_1${c}exe.jpg`
    const out = `run_1${shown}exe.jpg`
    expect(terminalSafe(text)).toBe(out)
    expect(terminalSafe(text, {multiline: true})).toBe(out)
    expect(tsvEscape(text)).toBe(out)
    expect(markdownText(text)).toBe(out)
    expect(workflowEscape(text, 'data')).toBe(out)
    const json = safeJson({name: text}) as string
    expect(json).toBe(`{"name":"${out}"}`)
    expect(JSON.parse(json)).toEqual({name: text})
  })
})

describe('tsvEscape', () => {
  it('escapes backslash, tab, newline and CR, other controls as \\u00XX: one record, one field', () => {
    expect(tsvEscape('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re')
    expect(tsvEscape('x\u001b[31my\u0085')).toBe('x\\u001b[31my\\u0085')
    expect(tsvEscape('plain, ünïcode')).toBe('plain, ünïcode')
  })
})

describe('safeJson', () => {
  it('escapes DEL and C1 controls, which JSON.stringify writes raw: the same value, no raw control', () => {
    const value = {'k\u009b': 'CSI \u009b2J, DEL \u007f, NEL \u0085, ESC \u001b, NBSP \u00a0, ✓'}
    const text = safeJson(value) as string
    expect(text).not.toMatch(RAW_CONTROL)
    expect(text).toBe('{"k\\u009b":"CSI \\u009b2J, DEL \\u007f, NEL \\u0085, ESC \\u001b, NBSP \u00a0, ✓"}')
    expect(JSON.parse(text)).toEqual(value)
    expect(safeJson(value, 2)).toBe(`{\n  ${text.slice(1, -1).replace(':', ': ')}\n}`)
  })

  it('never lets a control character through, for any code point below U+00A0', () => {
    const all = Array.from({length: 0xa0}, (_, i) => String.fromCharCode(i)).join('')
    expect(safeJson(all)).not.toMatch(RAW_CONTROL)
    expect(safeJson(all)).not.toContain('\n')
    expect(JSON.parse(safeJson(all) as string)).toBe(all)
  })

  it('is undefined for what JSON.stringify cannot write', () => {
    expect(safeJson(undefined)).toBeUndefined()
  })
})

describe('markdownText (the CI summary)', () => {
  it('escapes what Markdown would read as syntax, keeps words with inner underscores readable', () => {
    expect(markdownText('run_acme_0246')).toBe('run_acme_0246')
    expect(markdownText('_x_ *y* `z` [a](b) <i> a|b ~s~ & @me')).toBe(
      '\\_x\\_ \\*y\\* \\`z\\` \\[a\\](b) \\<i\\> a\\|b \\~s\\~ &amp; \\@\u2060me',
    )
    expect(markdownText('see http://x.example and www.example.com')).toBe('see http\\://x.example and www\\.example.com')
  })

  it('control characters, newlines included, are written visibly: one line', () => {
    expect(markdownText('a\nb\r\u001b[2J\u009b')).toBe('a\\u000ab\\u000d\\u001b\\[2J\\u009b')
  })

  it('an @ GitHub would take for a mention mentions no one, rendered anywhere in a summary; it reads as it was, an email address as it is', () => {
    // (issue 37 item 14: `\@octocat` renders as the text @octocat, which GitHub links and notifies)
    const names = ['@octocat', 'ping @octocat.', '@acme-labs/reviewers', 'é@octocat', '&@octocat', '(@octocat)', '@@octocat']
    for (const name of names) {
      const text = markdownText(name)
      const summary = `### ❌ amctl: ${text} regressed\n\n| Agent |\n|---|\n| ${text} |\n\n- **${text}**: scored 0.3\n\n<sub>${text}</sub>\n`
      expect(githubMentions(summary), name).toEqual([])
      // (U+2060 WORD JOINER, which shows nothing, after the @: no login starts with it)
      expect(shownText(text).replaceAll('\u2060', ''), name).toBe(name)
    }
    expect(markdownText('ada@example.com')).toBe('ada\\@example.com')
    expect(shownText(markdownText('ada@example.com'))).toBe('ada@example.com')
    expect(githubMentions(markdownText('write to ada@example.com'))).toEqual([])
  })
})

describe('workflowEscape (GitHub Actions workflow commands)', () => {
  it('data: %, CR and LF as GitHub documents; properties also : and ,', () => {
    expect(workflowEscape('100% done\r\n::error::x', 'data')).toBe('100%25 done%0D%0A::error::x')
    expect(workflowEscape('a:b,c%\n', 'property')).toBe('a%3Ab%2Cc%25%0A')
  })

  it('other control characters are written visibly', () => {
    expect(workflowEscape('bell\u0007 esc\u001b', 'data')).toBe('bell\\u0007 esc\\u001b')
  })
})
