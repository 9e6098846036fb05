import {describe, expect, it} from 'vitest'
import {filterPages, matchesFilter, newestUntil} from '../../src/gate/filter.js'
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
