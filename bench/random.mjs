// Seeded random draws for the bench's simulations and the tests that simulate the gate and the
// verdicts (test/gate/state.test.ts, test/gate/history-verdict.test.ts): the same numbers
// on every machine, no dependency. The uniforms are src/devserver/random.ts's mulberry32, written
// again here because the bench runs as plain JavaScript, without the TypeScript of src/.

/** Normal draws N(0, 1) from a seed: mulberry32's uniforms through Box–Muller. */
export function normalDraws(seed) {
  let a = seed >>> 0
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform())
}
