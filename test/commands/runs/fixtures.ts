/** A run of the org's list as the API answers it: eval set es_1, codex / gpt-5, created 2026-01-01. */
export const run = (id: string, status: string, score: number | null = null) => ({
  id,
  status,
  evalSetId: 'es_1',
  batchId: 'b_1',
  createdAt: '2026-01-01T00:00:00Z',
  forkedFrom: null,
  agent: 'codex',
  model: 'gpt-5',
  score,
})
