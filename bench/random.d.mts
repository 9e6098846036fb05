/** Normal draws N(0, 1) from a seed (bench/random.mjs). */
export function normalDraws(seed: number): () => number
