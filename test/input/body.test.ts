import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Readable} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {buildBody, fieldPairs, parseJsonObject, setMember, typedValue} from '../../src/input/body.js'
import {usageError} from '../helpers/failure.js'
import {tempDir} from '../helpers/temp.js'

// Request bodies from -F/-f/--input (cli-contract.md section 3).
const none = () => Readable.from([])
const stdin = (text: string) => Readable.from([Buffer.from(text)])

describe('typedValue (-F)', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['null', null],
    ['0', 0],
    ['-12.5', -12.5],
    ['1e3', 1000],
    ['[1,"a"]', [1, 'a']],
    ['{"a":{"b":2}}', {a: {b: 2}}],
    ['hello', 'hello'],
    ['007', '007'],
    ['1.', '1.'],
    ['True', 'True'],
    ['', ''],
  ])('%j → %j', async (text, value) => {
    expect(await typedValue('k', text, none())).toEqual(value)
  })

  it('@file reads the file (one trailing newline removed), @- reads stdin', async () => {
    const file = join(tempDir('amctl-body-'), 'note.txt')
    writeFileSync(file, 'from a file\n')
    expect(await typedValue('note', `@${file}`, none())).toBe('from a file')
    expect(await typedValue('note', '@-', stdin('piped\n\n'))).toBe('piped\n')
  })

  it('a value that looks like JSON but is not says where it breaks', async () => {
    expect(await usageError(typedValue('tags', '[1, 2', none()))).toMatch(
      /^-F tags: the value looks like JSON but is not valid: .* at line 1, column \d+$/,
    )
  })
})

describe('fieldPairs / buildBody', () => {
  it('no flags: no body (a GET stays a GET)', async () => {
    expect(await buildBody({}, none())).toBeUndefined()
  })

  it('-F typed, -f as strings, in the order given; --input merged under them', async () => {
    expect(await fieldPairs({field: ['n=1', 'ok=true'], 'raw-field': ['n2=1']}, none())).toEqual([
      ['n', 1],
      ['ok', true],
      ['n2', '1'],
    ])
    const body = await buildBody({input: '-', field: ['b=2'], 'raw-field': ['c=3']}, stdin('{"a":1,"b":1}'))
    expect(body).toEqual({a: 1, b: 2, c: '3'})
  })

  it('a member name is data: __proto__, constructor and toString are own members', async () => {
    const body = await buildBody({field: ['__proto__={"polluted":true}', 'constructor=1'], 'raw-field': ['toString=s']}, none())
    expect(Object.keys(body!)).toEqual(['__proto__', 'constructor', 'toString'])
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(JSON.parse(JSON.stringify(body))).toEqual({['__proto__']: {polluted: true}, constructor: 1, toString: 's'})
  })

  it.each([
    [{field: ['novalue']}, '-F expects key=value, got "novalue"'],
    [{field: ['=x']}, '-F expects key=value, got "=x"'],
    [{'raw-field': ['k']}, '-f expects key=value, got "k"'],
  ])('%j → exit 2: %s', async (flags, message) => {
    expect(await usageError(fieldPairs(flags, none()))).toBe(message)
  })
})

describe('parseJsonObject (--input)', () => {
  it('accepts an object', () => {
    expect(parseJsonObject('{"a":[1]}', '--input x')).toEqual({a: [1]})
  })

  it.each([
    ['', '--input x is empty; expected a JSON object'],
    ['  \n', '--input x is empty; expected a JSON object'],
    ['[1]', '--input x must be a JSON object, got an array'],
    ['null', '--input x must be a JSON object, got null'],
    ['"s"', '--input x must be a JSON object, got string'],
    ['{"a":\n  1,}', '--input x is not valid JSON: '],
  ])('%j → %s', async (text, message) => {
    expect(await usageError(() => parseJsonObject(text, '--input x'))).toContain(message)
  })

  it('names the line and column of a syntax error', async () => {
    expect(await usageError(() => parseJsonObject('{\n  "a": 1\n  "b": 2\n}', '--input f.json'))).toMatch(/at line 3, column 3$/)
  })

  it('setMember defines an own enumerable member', () => {
    const target = {}
    setMember(target, '__proto__', 1)
    expect(Object.hasOwn(target, '__proto__')).toBe(true)
    expect(Object.keys(target)).toEqual(['__proto__'])
  })
})
