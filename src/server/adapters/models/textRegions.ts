/** A line of likely text, in pixels of the analysed grey image. */
export interface TextLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Character-like components in the line. */
  chars: number;
  /** Mean edge step of its characters, in grey levels. */
  sharpness: number;
  /** 'light' for light text on a darker ground (captions, titles), 'dark' for print-like text. */
  ink: 'light' | 'dark';
}

interface Blob {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  area: number;
  /** Pixels with a 4-neighbour outside the blob; area / edge ~ half the stroke width. */
  edge: number;
  /** Mean step in grey across the outline: rendered text has hard edges, texture soft ones. */
  sharp: number;
  /** Mean and spread of the grey values inside: rendered glyphs are nearly one tone. */
  mean: number;
  sd: number;
}

export interface TextRegionOptions {
  /** Local contrast a stroke needs against its surroundings, in grey levels (default 40). */
  contrast?: number;
  /** Fewest character-like components that make a line (default 3). */
  minChars?: number;
  /** Least mean edge step of a line's characters (default 90; measured: drawn text 150-195, photo texture < 75). */
  minSharpness?: number;
}

/**
 * Lines of text by connected components, the classic cheap detector: pixels much brighter (or much
 * darker) than their neighbourhood form blobs; blobs of letter size and fill, nearly one tone, that
 * sit side by side with similar heights, ink and stroke width and a shared top or baseline make a
 * line. Foliage and fur can line up three such blobs, but their outlines are soft; rendered text's
 * are hard, so a line must also have sharp edges. Captions, titles and signs pass, in either polarity.
 */
export function findTextLines(grey: Uint8Array, width: number, height: number, opts: TextRegionOptions = {}): TextLine[] {
  const k = opts.contrast ?? 40;
  const minChars = opts.minChars ?? 3;
  const mean = boxMean(grey, width, height, Math.max(6, Math.round(Math.min(width, height) / 30)));
  let lines: TextLine[] = [];
  for (const polarity of [1, -1] as const) {
    const mask = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) mask[i] = polarity * (grey[i] - mean[i]) > k ? 1 : 0;
    const chars = components(mask, grey, width, height).filter((b) => charLike(b, width, height));
    // A line of three or more letters is wider than it is tall, by far; tight clusters are texture.
    const found = groupLines(chars, minChars).filter((l) => l.sharpness >= (opts.minSharpness ?? 90) && l.x2 - l.x1 >= 1.5 * (l.y2 - l.y1));
    lines.push(...found.map((l) => ({ ...l, ink: polarity === 1 ? ('light' as const) : ('dark' as const) })));
  }
  // Outlined captions can show up in both polarities (letters, and their outlines); keep the fuller reading.
  lines.sort((a, b) => b.chars - a.chars);
  lines = lines.filter((l, i) => lines.slice(0, i).every((m) => overlap(l, m) < 0.5));
  // Words of one caption line spaced wider than letters are found as pieces; joined, OCR gets the
  // whole line (its language model reads words better in context). Then reading order.
  return joinPieces(lines).sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
}

function joinPieces(lines: TextLine[]): TextLine[] {
  const out = [...lines].sort((a, b) => a.x1 - b.x1);
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i];
      const b = out[j];
      const h = Math.min(a.y2 - a.y1, b.y2 - b.y1) + 1;
      const vertical = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) + 1;
      if (a.ink !== b.ink || vertical < 0.6 * h || b.x1 - a.x2 > 2.5 * h) continue;
      out[i] = {
        x1: Math.min(a.x1, b.x1),
        y1: Math.min(a.y1, b.y1),
        x2: Math.max(a.x2, b.x2),
        y2: Math.max(a.y2, b.y2),
        chars: a.chars + b.chars,
        sharpness: (a.sharpness * a.chars + b.sharpness * b.chars) / (a.chars + b.chars),
        ink: a.ink,
      };
      out.splice(j, 1);
      j = i;
    }
  }
  return out;
}

/** Intersection over the smaller box. */
function overlap(a: TextLine, b: TextLine): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1) + 1;
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1) + 1;
  if (w <= 0 || h <= 0) return 0;
  const area = (l: TextLine) => (l.x2 - l.x1 + 1) * (l.y2 - l.y1 + 1);
  return (w * h) / Math.min(area(a), area(b));
}

function charLike(b: Blob, width: number, height: number): boolean {
  const w = b.x2 - b.x1 + 1;
  const h = b.y2 - b.y1 + 1;
  if (h < 7 || h > height / 3 || w > h * 2 || w * 12 < h) return false;
  if (b.x1 === 0 || b.y1 === 0 || b.x2 === width - 1 || b.y2 === height - 1) return false;
  const fill = b.area / (w * h);
  // Thin strokes (l, I, 1) fill their box; anything wider that fills it is a patch, not a letter.
  return fill > 0.18 && (fill < 0.92 || w * 3 <= h) && b.sd < 28;
}

function groupLines(chars: Blob[], minChars: number): Array<Omit<TextLine, 'ink'>> {
  const parent = chars.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const sorted = chars.map((_, i) => i).sort((a, b) => chars[a].x1 - chars[b].x1);
  for (let s = 0; s < sorted.length; s++) {
    const a = chars[sorted[s]];
    const ha = a.y2 - a.y1 + 1;
    for (let t = s + 1; t < sorted.length; t++) {
      const b = chars[sorted[t]];
      if (b.x1 - a.x2 > ha * 1.2) break; // sorted by x1: nothing further can be closer
      const hb = b.y2 - b.y1 + 1;
      const ratio = Math.max(ha, hb) / Math.min(ha, hb);
      const tol = Math.min(ha, hb) * 0.2;
      const aligned = Math.abs(a.y2 - b.y2) <= tol || Math.abs(a.y1 - b.y1) <= tol;
      const sameInk = Math.abs(a.mean - b.mean) < 30;
      const sw = stroke(a) / stroke(b);
      if (ratio < 1.6 && aligned && sameInk && sw < 1.8 && sw > 1 / 1.8 && b.x1 > a.x1) parent[find(sorted[t])] = find(sorted[s]);
    }
  }
  const groups = new Map<number, Blob[]>();
  chars.forEach((c, i) => {
    const r = find(i);
    groups.set(r, [...(groups.get(r) ?? []), c]);
  });
  const lines: Array<Omit<TextLine, 'ink'>> = [];
  for (const g of groups.values()) {
    if (g.length < minChars) continue;
    lines.push({
      x1: Math.min(...g.map((b) => b.x1)),
      y1: Math.min(...g.map((b) => b.y1)),
      x2: Math.max(...g.map((b) => b.x2)),
      y2: Math.max(...g.map((b) => b.y2)),
      chars: g.length,
      sharpness: g.reduce((sum, b) => sum + b.sharp, 0) / g.length,
    });
  }
  return lines;
}

const stroke = (b: Blob) => (2 * b.area) / Math.max(1, b.edge);

/** 8-connected components of a 0/1 mask: bounding box, size, edge length and the grey tones inside. */
function components(mask: Uint8Array, grey: Uint8Array, width: number, height: number, label = new Int32Array(width * height)): Blob[] {
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start]) continue;
    const b: Blob = { x1: width, y1: height, x2: 0, y2: 0, area: 0, edge: 0, sharp: 0, mean: 0, sd: 0 };
    let sum = 0;
    let sumSq = 0;
    label[start] = blobs.length + 1;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      b.area++;
      sum += grey[p];
      sumSq += grey[p] * grey[p];
      if (
        x === 0 ||
        x === width - 1 ||
        y === 0 ||
        y === height - 1 ||
        !mask[p - 1] ||
        !mask[p + 1] ||
        !mask[p - width] ||
        !mask[p + width]
      ) {
        b.edge++;
        let step = 0;
        for (const q of [p - 1, p + 1, p - width, p + width])
          if (q >= 0 && q < mask.length && !mask[q]) step = Math.max(step, Math.abs(grey[p] - grey[q]));
        b.sharp += step;
      }
      if (x < b.x1) b.x1 = x;
      if (x > b.x2) b.x2 = x;
      if (y < b.y1) b.y1 = y;
      if (y > b.y2) b.y2 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (mask[q] && !label[q]) {
            label[q] = blobs.length + 1;
            stack.push(q);
          }
        }
      }
    }
    b.sharp /= Math.max(1, b.edge);
    b.mean = sum / b.area;
    b.sd = Math.sqrt(Math.max(0, sumSq / b.area - b.mean * b.mean));
    blobs.push(b);
  }
  return blobs;
}

/** Mean of a (2r+1)² box around each pixel, via an integral image. */
function boxMean(grey: Uint8Array, width: number, height: number, r: number): Float32Array {
  const W = width + 1;
  const integral = new Float64Array(W * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += grey[y * width + x];
      integral[(y + 1) * W + x + 1] = integral[y * W + x + 1] + row;
    }
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const sum = integral[y1 * W + x1] - integral[y0 * W + x1] - integral[y1 * W + x0] + integral[y0 * W + x0];
      out[y * width + x] = sum / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}

/**
 * Clean black-on-white text for OCR from a grey crop around one line: strokes by the same local
 * contrast test as detection; then blobs touching the crop's edge (background, outlines of things
 * around the caption) and blobs mostly outside the line's band `band` (texture above or below it)
 * are erased. Tesseract reads this far better than a photo behind letters.
 */
export function inkMask(
  grey: Uint8Array,
  width: number,
  height: number,
  ink: 'light' | 'dark',
  band: { y1: number; y2: number },
  contrast = 40,
): Uint8Array {
  const polarity = ink === 'light' ? 1 : -1;
  const mean = boxMean(grey, width, height, Math.max(4, Math.round(height / 3)));
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = polarity * (grey[i] - mean[i]) > contrast ? 1 : 0;
  const out = new Uint8Array(width * height).fill(255);
  const label = new Int32Array(width * height);
  const blobs = components(mask, grey, width, height, label);
  const lineH = band.y2 - band.y1 + 1;
  blobs.forEach((b, i) => {
    if (b.x1 === 0 || b.y1 === 0 || b.x2 === width - 1 || b.y2 === height - 1) return;
    const h = b.y2 - b.y1 + 1;
    const inside = Math.min(b.y2, band.y2) - Math.max(b.y1, band.y1) + 1;
    if (inside < 0.5 * h || h > 1.5 * lineH) return;
    for (let y = b.y1; y <= b.y2; y++) for (let x = b.x1; x <= b.x2; x++) if (label[y * width + x] === i + 1) out[y * width + x] = 0;
  });
  return out;
}
