import {describe, expect, it} from 'vitest'
import {JsonItemsWriter} from '../../src/output/json-stream.js'
import {fakeIO} from '../helpers/fake-io.js'

async function write(tty: boolean, batches: unknown[][], error?: {code: string; message: string; status?: number}) {
  const io = fakeIO({stdoutTTY: tty})
  const w = new JsonItemsWriter(io)
  await w.open()
  for (const batch of batches) await w.items(batch)
  await w.close(error)
  return io.out()
}

const A = {id: 'run_1', nested: {ok: true, list: [1, 2]}}
const B = {id: 'run_2', text: 'line\nbreak "quoted"'}
const C = {id: 'run_3'}

describe('JsonItemsWriter', () => {
  for (const tty of [false, true]) {
    describe(tty ? 'on a TTY (pretty)' : 'piped (compact)', () => {
      it('0 items → {"items":[]}', async () => {
        const out = await write(tty, [])
        expect(JSON.parse(out)).toEqual({items: []})
      })

      it('1 item', async () => {
        expect(JSON.parse(await write(tty, [[A]]))).toEqual({items: [A]})
      })

      it('many items over several batches, including empty batches', async () => {
        const out = await write(tty, [[A, B], [], [C]])
        expect(JSON.parse(out)).toEqual({items: [A, B, C]})
        expect(out.endsWith('}\n')).toBe(true)
      })

      it('writes DEL and C1 controls of items and of the error escaped (\\u009b): no raw control, the same values', async () => {
        const item = {id: 'run_\u009b2J', note: 'DEL \u007f NEL \u0085'}
        const error = {code: 'bad_response', message: 'CSI \u009b31m'}
        const out = await write(tty, [[item]], error)
        expect(out).not.toMatch(/[\u007f-\u009f]/)
        expect(out).toContain('run_\\u009b2J')
        expect(JSON.parse(out)).toEqual({items: [item], error})
      })

      it('closed with an error → {"items":[…],"error":{…}}, still one document', async () => {
        const error = {code: 'rate_limited', message: 'slow down', status: 429}
        expect(JSON.parse(await write(tty, [[A, B]], error))).toEqual({items: [A, B], error})
        expect(JSON.parse(await write(tty, [], error))).toEqual({items: [], error})
      })
    })
  }

  it('is one line when piped and indented on a TTY', async () => {
    const piped = await write(false, [[A, B]])
    expect(piped.trimEnd().split('\n')).toHaveLength(1)
    expect(piped).toBe(`${JSON.stringify({items: [A, B]})}\n`)
    const pretty = await write(true, [[A, B]])
    expect(pretty).toBe(`${JSON.stringify({items: [A, B]}, null, 2)}\n`)
  })
})
