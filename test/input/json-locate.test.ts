import {describe, expect, it} from 'vitest'
import {locateJsonError} from '../../src/input/json-locate.js'

// Where JSON text stops being valid, 1-based: what the error messages of -F, --input and --set name.
describe('locateJsonError', () => {
  it.each([
    ['{"a":', 1, 6, 'unexpected end of input'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, ''],
    ['[1, 2,]', 1, 7, ''],
    ['{"a": tru}', 1, 7, 'unexpected'],
    ['{"a": "x\\q"}', 1, 9, 'invalid escape in string'],
    ['{"a": "\\u12G4"}', 1, 8, 'invalid \\u escape'],
    ['"tab\there"', 1, 5, 'control character in string'],
  ])('%j → line %i, column %i', (text, line, column, problem) => {
    const found = locateJsonError(text)
    expect({line: found.line, column: found.column}).toEqual({line, column})
    expect(found.problem).toContain(problem)
  })

  it('counts columns after the last newline, CRLF included', () => {
    expect(locateJsonError('{\r\n"a" 1}')).toMatchObject({line: 2, column: 5})
  })
})
