import type {Run} from '../contract/types.js'
import type {Column} from './format.js'

/**
 * How runs are listed (`runs list`, `runs watch`, the newest runs after an unknown `evals run`):
 * the ID first, as scripts expect. Tab-separated: ID, status, eval set, created, then agent, model
 * and score (empty when a run has none; added after the first four, which scripts read by place);
 * on a terminal agent, model and score are shown when some run has them.
 */
export const RUN_COLUMNS: Column<Run>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'STATUS', get: (r) => r.status, show: 'status'},
  {header: 'EVAL SET', get: (r) => r.evalSetId},
  {header: 'AGENT', get: (r) => r.agent, flexible: true, extra: true, appended: true},
  {header: 'MODEL', get: (r) => r.model, flexible: true, extra: true, appended: true},
  {header: 'SCORE', get: (r) => r.score, show: 'score', extra: true, appended: true},
  {header: 'CREATED', get: (r) => r.createdAt, show: 'time'},
]
