/**
 * A small seeded PRNG (mulberry32) for property tests: the same seed gives the same
 * sequence on every run, so a failure names a seed that replays it.
 * @param seed Any 32-bit integer.
 * @returns A function giving numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
