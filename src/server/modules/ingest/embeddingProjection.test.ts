import { describe, expect, it } from 'vitest';
import { EMBEDDING_DIMS, INDEX_DIMS, projectEmbedding } from './embeddingProjection';

function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}
const cos = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return d / Math.sqrt(na * nb);
};
const centred = (a: Float32Array) => {
  const m = a.reduce((s, x) => s + x, 0) / a.length;
  return a.map((x) => x - m);
};

describe('embedding projection', () => {
  it('is deterministic and keeps the similarity order of near and far neighbours', () => {
    const r = rng(7);
    // Non-negative like pooled CNN features: a base picture, a close variant and an unrelated one.
    const base = Float32Array.from({ length: EMBEDDING_DIMS }, () => Math.max(0, r() * 2 - 0.5));
    const near = base.map((x) => Math.max(0, x + (r() - 0.5) * 0.4));
    const far = Float32Array.from({ length: EMBEDDING_DIMS }, () => Math.max(0, r() * 2 - 0.5));
    const pb = projectEmbedding(base);
    expect(pb).toHaveLength(INDEX_DIMS);
    expect(projectEmbedding(base)).toEqual(pb);
    const nearSim = cos(pb, projectEmbedding(near));
    const farSim = cos(pb, projectEmbedding(far));
    expect(nearSim).toBeGreaterThan(farSim + 0.3);
    expect(Math.abs(nearSim - cos(centred(base), centred(near)))).toBeLessThan(0.1);
    expect(Math.abs(farSim - cos(centred(base), centred(far)))).toBeLessThan(0.15);
  });

  it('refuses an embedding of the wrong size', () => {
    expect(() => projectEmbedding(new Float32Array(10))).toThrow(/1280/);
  });
});
