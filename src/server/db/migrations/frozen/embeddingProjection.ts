/**
 * The image embedding's index projection as migration 0006 computed it (a copy of
 * repositories/embeddingProjection.ts at 6191ec9). A migration runs once per database, possibly
 * years after it was written, and must do then what it did when it was written: so it imports no
 * live code. If the live projection ever changes, stored `embedding_r` vectors need a new migration
 * that re-projects them; this copy stays as it is.
 */
export const EMBEDDING_DIMS = 1280;
export const INDEX_DIMS = 256;

/** mulberry32: a tiny seeded PRNG, so every process projects the same way forever. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let matrix: Float32Array | null = null;

/** INDEX_DIMS x EMBEDDING_DIMS Gaussian entries (Box–Muller), row-major, from the seed 0x5eedc11b. */
function projectionMatrix(): Float32Array {
  if (matrix) return matrix;
  const rand = prng(0x5eed_c11b);
  const m = new Float32Array(INDEX_DIMS * EMBEDDING_DIMS);
  for (let i = 0; i < m.length; i += 2) {
    const u = Math.max(rand(), 1e-12);
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    m[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < m.length) m[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  matrix = m;
  return m;
}

/** The index vector of an embedding, centred first (the classifier's pooled features are all non-negative). */
export function projectEmbedding(e: Float32Array): Float32Array {
  if (e.length !== EMBEDDING_DIMS) throw new Error(`An image embedding has ${EMBEDDING_DIMS} numbers, not ${e.length}.`);
  const m = projectionMatrix();
  let mean = 0;
  for (let j = 0; j < e.length; j++) mean += e[j]!;
  mean /= e.length;
  const out = new Float32Array(INDEX_DIMS);
  for (let i = 0; i < INDEX_DIMS; i++) {
    let s = 0;
    const row = i * EMBEDDING_DIMS;
    for (let j = 0; j < EMBEDDING_DIMS; j++) s += m[row + j]! * (e[j]! - mean);
    out[i] = s;
  }
  return out;
}
