/** The log `GET /_dev/requests` reads: what was asked and answered, never a credential. */

export interface RequestLogEntry {
  seq: number
  method: string
  /** path with the query string */
  path: string
  /** null when the connection was dropped without an answer */
  status: number | null
  /** the fault action applied, if any */
  fault: string | null
  authorization: 'present' | 'absent'
  at: string
}

export const REQUEST_LOG_CAPACITY = 10_000

export class RequestLog {
  private entries: RequestLogEntry[] = []
  private seq = 0

  start(method: string, path: string, hasAuthorization: boolean): RequestLogEntry {
    this.seq += 1
    const entry: RequestLogEntry = {
      seq: this.seq,
      method,
      path,
      status: null,
      fault: null,
      authorization: hasAuthorization ? 'present' : 'absent',
      at: new Date().toISOString(),
    }
    this.entries.push(entry)
    if (this.entries.length > REQUEST_LOG_CAPACITY) this.entries.splice(0, this.entries.length - REQUEST_LOG_CAPACITY)
    return entry
  }

  list(method: string | null, path: RegExp | null): RequestLogEntry[] {
    return this.entries.filter((entry) => (method === null || entry.method === method.toUpperCase()) && (path === null || path.test(entry.path)))
  }

  clear(): void {
    this.entries = []
  }
}
