/**
 * Where JSON text stops being valid, as 1-based line and column — V8's JSON.parse messages do
 * not reliably say. A small recursive-descent checker, run only after JSON.parse has failed.
 */
export interface JsonSyntaxProblem {
  line: number
  column: number
  problem: string
}

export function locateJsonError(text: string): JsonSyntaxProblem {
  let i = 0
  const fail = (problem: string): never => {
    throw Object.assign(new Error(problem), {at: i})
  }
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail(`unexpected ${describeAt(text, i)}`)
  }
  const string = () => {
    i++ // opening quote
    while (i < text.length) {
      const c = text[i]
      if (c === '"') {
        i++
        return
      }
      if (c === '\\') {
        const e = text[i + 1]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape')
          i += 6
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2
        else fail('invalid escape in string')
      } else if (c < ' ') fail('control character in string')
      else i++
    }
    fail('unterminated string')
  }
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))
    if (!m) fail(`unexpected ${describeAt(text, i)}`)
    else i += m[0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describeAt(text, i)}`)
        string()
        ws()
        if (text[i] !== ':') fail(`expected ":" after the property name, found ${describeAt(text, i)}`)
        i++
        value()
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail(`expected "," or "}", found ${describeAt(text, i)}`)
      }
    } else if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail(`expected "," or "]", found ${describeAt(text, i)}`)
      }
    } else if (c === '"') string()
    else if (c === 't') literal('true')
    else if (c === 'f') literal('false')
    else if (c === 'n') literal('null')
    else if (c === '-' || (c >= '0' && c <= '9')) number()
    else fail(`unexpected ${describeAt(text, i)}`)
  }
  try {
    value()
    ws()
    if (i < text.length) fail(`unexpected ${describeAt(text, i)} after the JSON value`)
    return {...position(text, text.length), problem: 'invalid JSON'}
  } catch (error) {
    const at = (error as {at: number}).at
    return {...position(text, at), problem: (error as Error).message}
  }
}

function describeAt(text: string, i: number): string {
  return i >= text.length ? 'end of input' : JSON.stringify(text[i])
}

function position(text: string, offset: number): {line: number; column: number} {
  let line = 1
  let lineStart = 0
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++
      lineStart = k + 1
    }
  }
  return {line, column: offset - lineStart + 1}
}
