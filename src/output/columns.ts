import type {Connection, Run} from '../api/types.js'
import type {Column} from './format.js'

/** Column sets shared by the commands that list the same kind of thing. */

export const RUN_COLUMNS: Column<Run>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'STATUS', get: (r) => r.status},
  {header: 'EVAL SET', get: (r) => r.evalSetId},
  {header: 'CREATED', get: (r) => r.createdAt},
]

export const CONNECTION_COLUMNS: Column<Connection>[] = [
  {header: 'ID', get: (c) => c.id},
  {header: 'NAME', get: (c) => c.name},
  {header: 'ALLOWED HOSTS', get: (c) => c.allowedHosts},
]
