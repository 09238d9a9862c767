// The two pieces of PP-OCR that are not the networks: DB post-processing (probability map -> text
// boxes) and CTC greedy decoding (per-step class probabilities -> characters). Pure functions.

/** A text line found by the detector, in the pixels of the image it was detected on. */
export interface TextBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Mean text probability inside the box before unclipping (0..1). */
  score: number;
}

export interface DbOptions {
  /** A map pixel is text above this probability (PaddleOCR `det_db_thresh`). */
  threshold?: number;
  /** A box is kept when its mean probability reaches this (`det_db_box_thresh`). */
  boxThreshold?: number;
  /** How far a shrunk box is grown back (`det_db_unclip_ratio`). */
  unclipRatio?: number;
  /** Boxes with a shorter side (map pixels) are noise. */
  minSide?: number;
  /** At most this many components are looked at (`max_candidates`). */
  maxCandidates?: number;
}

/**
 * Text boxes of a DB probability map (`width` x `height`), in map pixels: connected regions above
 * `threshold` (8-connected), scored by their mean probability, then "unclipped" (grown by
 * area * ratio / perimeter on every side), the way the DB detector was trained to be read. Boxes are
 * axis-aligned: captions and signs in videos are horizontal, and a rotated crop would cost a warp
 * per line for text this indexer does not target.
 */
export function dbBoxes(prob: Float32Array, width: number, height: number, o: DbOptions = {}): TextBox[] {
  const threshold = o.threshold ?? 0.3;
  const boxThreshold = o.boxThreshold ?? 0.6;
  const unclipRatio = o.unclipRatio ?? 1.5;
  const minSide = o.minSide ?? 3;
  const maxCandidates = o.maxCandidates ?? 1000;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const boxes: TextBox[] = [];
  let candidates = 0;
  for (let start = 0; start < prob.length && candidates < maxCandidates; start++) {
    if (seen[start] || prob[start]! <= threshold) continue;
    candidates++;
    let x1 = width;
    let y1 = height;
    let x2 = -1;
    let y2 = -1;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      if (x < x1) x1 = x;
      if (x > x2) x2 = x;
      if (y < y1) y1 = y;
      if (y > y2) y2 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (!seen[q] && prob[q]! > threshold) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    const w = x2 - x1 + 1;
    const h = y2 - y1 + 1;
    if (Math.min(w, h) < minSide) continue;
    // PaddleOCR's "fast" box score: the mean probability over the box, not just the region.
    let sum = 0;
    for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) sum += prob[y * width + x]!;
    const score = sum / (w * h);
    if (score < boxThreshold) continue;
    const d = (w * h * unclipRatio) / (2 * (w + h));
    if (Math.min(w, h) + 2 * d < minSide + 2) continue;
    boxes.push({
      x1: Math.max(0, x1 - d),
      y1: Math.max(0, y1 - d),
      x2: Math.min(width, x2 + 1 + d),
      y2: Math.min(height, y2 + 1 + d),
      score,
    });
  }
  return boxes;
}

/** One decoded line: its characters with the probability of each. */
export interface DecodedLine {
  text: string;
  /** One per character of `text` (spaces included). */
  probs: number[];
}

/**
 * CTC greedy decoding of one sequence: the most likely class per step, repeats merged, blanks
 * (class 0) dropped; class i is `dict[i - 1]`. `data` holds `steps` x `classes` probabilities from
 * `offset`.
 *
 * The Chinese-and-English PP-OCR recogniser rarely outputs the space class as the best one between
 * words in capitals, though it often gives it some probability there: a blank step whose space
 * probability reaches `spaceProb` between two characters counts as a space.
 */
export function ctcDecode(
  data: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  dict: readonly string[],
  spaceProb = 1,
): DecodedLine {
  const space = dict.lastIndexOf(' ') + 1;
  let text = '';
  const probs: number[] = [];
  let prev = 0;
  let pendingSpace = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = data[row]!;
    for (let c = 1; c < classes; c++) {
      const p = data[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best === 0 && space > 0 && text && data[row + space]! >= spaceProb) pendingSpace = Math.max(pendingSpace, data[row + space]!);
    if (best !== 0 && best !== prev) {
      const ch = dict[best - 1] ?? '';
      if (pendingSpace && best !== space && !text.endsWith(' ')) {
        text += ' ';
        probs.push(pendingSpace);
      }
      text += ch;
      probs.push(bestP);
      pendingSpace = 0;
    }
    if (best !== 0) pendingSpace = 0;
    prev = best;
  }
  return { text, probs };
}
