import type {Connection} from '../../../contract/types.js'
import type {Column} from '../../../output/format.js'

/** How connections are listed: identity and allowed hosts; secrets never exist in the output. */
export const CONNECTION_COLUMNS: Column<Connection>[] = [
  {header: 'ID', get: (c) => c.id},
  {header: 'NAME', get: (c) => c.name, flexible: true},
  {header: 'ALLOWED HOSTS', get: (c) => c.allowedHosts, flexible: true},
]
