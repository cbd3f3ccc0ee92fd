/**
 * mulberry32: a tiny seeded generator. The same seed gives the same sequence
 * on every PC and in the renderer: a sweep's shuffled order (a resume must
 * follow it), a loss stage's drops (a test can replay them).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
