import {PAGE_LIMIT, type Page} from '../contract/vocabulary.js'
import {invalid} from './errors.js'
import {queryInteger} from './validate.js'

/**
 * Newest-first pages over an append-only list kept oldest first. A cursor is the position
 * (exclusive) where the next page starts, bound to the list's scope, so a page costs O(limit)
 * whatever the list's length, and items appended during a walk land above it: they never cause
 * a duplicate or a gap.
 */
export function pageNewestFirst<T>(items: readonly T[], scope: string, query: URLSearchParams): Page<T> {
  const limit = queryInteger(query.get('limit'), 'limit', PAGE_LIMIT.min, PAGE_LIMIT.max, PAGE_LIMIT.default)
  const raw = query.get('cursor')
  const end = raw === null ? items.length : decodeCursor(raw, scope, items.length)
  const start = Math.max(0, end - limit)
  const page = items.slice(start, end).reverse()
  return {items: page, nextCursor: start > 0 ? encodeCursor(scope, start) : null}
}

export function encodeCursor(scope: string, position: number): string {
  return Buffer.from(`${scope}:${position}`).toString('base64url')
}

function decodeCursor(raw: string, scope: string, length: number): number {
  const text = /^[\w-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString() : ''
  const match = /^(.+):(\d{1,15})$/.exec(text)
  const position = match === null ? Number.NaN : Number(match[2])
  if (match === null || encodeCursor(match[1], position) !== raw) throw invalid(`invalid cursor ${JSON.stringify(raw)}`)
  if (match[1] !== scope) throw invalid('cursor belongs to another list')
  if (position < 1 || position > length) throw invalid(`invalid cursor ${JSON.stringify(raw)}: out of range`)
  return position
}
