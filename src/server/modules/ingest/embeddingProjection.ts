/**
 * The image embedding (the classifier's 1280 pooled features) is kept whole for exact scoring, and
 * indexed through a 256-dimensional random projection: an HNSW graph over 1280 dimensions builds
 * ~20x slower (58 s vs 2.9 s per 10,000 keyframes in PGlite) and answers slower, while a Gaussian
 * projection keeps cosine similarities within a few hundredths (Johnson–Lindenstrauss), plenty to
 * find candidates that the full vectors then rank exactly.
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

/** INDEX_DIMS x EMBEDDING_DIMS Gaussian entries (Box–Muller), row-major; the seed must never change. */
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

/**
 * The index vector of an embedding. Features are centred first (the classifier's pooled features
 * are all non-negative, so their shared mean direction would otherwise dominate every projection).
 */
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
