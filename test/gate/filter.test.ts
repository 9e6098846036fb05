import {describe, expect, it} from 'vitest'
import {dateMs, filterPages, matchesFilter, newestUntil} from '../../src/gate/filter.js'
import type {Run} from '../../src/contract/types.js'
import {countedPages, runAt} from '../helpers/pages.js'

const run = (id: string, createdAt: string, fields: Partial<Run> = {}): Run => runAt(id, createdAt, fields)

const source = (pages: Run[][]) => countedPages(pages)

describe('newestUntil: the newest-first scan with a time bound (runs list --since, the baseline lookup)', () => {
  const PAGES = [
    [run('r5', '2026-11-05T00:00:00Z'), run('r4', '2026-11-04T00:00:00Z')],
    [run('r3', '2026-11-03T00:00:00Z'), run('r2', '2026-11-02T00:00:00Z')],
    [run('r1', '2026-11-01T00:00:00Z')],
  ]

  it('stops after the first page that holds a run older than the bound: later pages are never requested', async () => {
    const src = source(PAGES)
    let told = 0
    const seen: string[] = []
    for await (const page of newestUntil(src.pages, Date.parse('2026-11-03T12:00:00Z'), () => told++))
      seen.push(...page.items.map((r) => r.id))
    expect(seen).toEqual(['r5', 'r4', 'r3', 'r2'])
    expect(src.requested()).toBe(2)
    expect(told).toBe(1)
  })

  it('without a bound, or with one no run reaches, reads every page and says nothing', async () => {
    for (const bound of [undefined, Date.parse('2020-01-01T00:00:00Z')]) {
      const src = source(PAGES)
      let told = 0
      for await (const _ of newestUntil(src.pages, bound, () => told++));
      expect(src.requested()).toBe(3)
      expect(told).toBe(0)
    }
  })

  it.each([['since'], ['until']])(
    'with --%s, a run whose createdAt is not a date is a bad answer (exit 1), never a run that silently drops out (issue 26 item 2)',
    async (bound) => {
      const src = source([[run('x', 'not a date')], [run('y', '2026-11-01T00:00:00Z')]])
      await expect(async () => {
        for await (const _ of filterPages(src.pages, {[bound]: Date.parse('2026-10-01T00:00:00Z')}));
      }).rejects.toMatchObject({
        code: 'bad_response',
        exitCode: 1,
        message: expect.stringContaining('run x has a createdAt that is not a date'),
      })
      expect(() => matchesFilter(run('x', 'not a date'), {until: 1})).toThrow(/not a date/)
      // without a time bound the date is not read
      expect(matchesFilter(run('x', 'not a date'), {})).toBe(true)
    },
  )

  it('an item that is not an object is a bad response (exit 1), not a crash', async () => {
    const src = source([[null as unknown as Run]])
    await expect(async () => {
      for await (const _ of newestUntil(src.pages, undefined));
    }).rejects.toMatchObject({code: 'bad_response', exitCode: 1})
  })
})

describe("dateMs: Date.parse's value, the API's form the fast way", () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  it('every day of every month (the 29th to 31st rolled over as Date.parse does), of leap and other years, to the millisecond', () => {
    const texts: string[] = []
    for (const year of [0, 1, 1600, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 9999])
      for (let month = 1; month <= 12; month++)
        for (let day = 1; day <= 31; day++) {
          const [h, m, s, ms] = [(day * 7) % 24, (month * 13 + day) % 60, (year + day) % 60, (year * 31 + day * 17) % 1000]
          texts.push(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`)
        }
    expect(texts).toHaveLength(11 * 12 * 31)
    for (const text of texts) expect(dateMs(text), text).toBe(Date.parse(text))
  })

  it('every other form is Date.parse itself: without milliseconds, with an offset, out of range, not a date', () => {
    for (const text of [
      '2026-11-30T12:34:56Z',
      '2026-11-30T12:34:56.789+02:00',
      '2026-11-30T24:00:00.000Z',
      '2026-11-30T23:59:60.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-11-00T00:00:00.000Z',
      '2026-11-32T00:00:00.000Z',
      '2026-1a-30T12:34:56.789Z',
      '2026-11-30 12:34:56.789Z',
      '+02026-11-30T12:34:56.789Z',
      'yesterday, about noon....',
      '',
    ])
      expect(Object.is(dateMs(text), Date.parse(text)), text).toBe(true)
  })
})
