import {ApiError} from './errors.js'

/** Per-token fixed one-second windows: at most `perSecond` requests each (0 = unlimited). */
export class RateLimiter {
  private readonly windows = new Map<string, {start: number; count: number}>()

  /** `now`: the server's clock (tests pass their own) */
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  check(key: string): void {
    if (this.perSecond <= 0) return
    const now = this.now()
    let window = this.windows.get(key)
    if (window === undefined || now - window.start >= 1000) {
      window = {start: now, count: 0}
      this.windows.set(key, window)
    }
    if (window.count >= this.perSecond) {
      throw new ApiError('rate_limited', `rate limit of ${this.perSecond} requests per second exceeded; retry after 1 second`, {
        'Retry-After': '1',
      })
    }
    window.count += 1
  }
}
