/**
 * Seeded randomness of the dev server (fault rules, outcome plans): mulberry32, written here
 * because the server needs a few lines of deterministic noise and no dependency for it
 * (Math.random cannot be seeded). The same seed gives the same sequence on every machine.
 */

/** A stream of uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
