import { HERO } from '../../contract';

/** The sample clips in public/hero/, each as `<name>-720.mp4` and `<name>-1080.mp4`. */
export const HERO_CLIPS = ['aurora', 'colony', 'ember', 'weave', 'plasma', 'carpet'] as const;

export interface HeroCell {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  clip: (typeof HERO_CLIPS)[number];
}

export interface HeroLayout {
  columns: number;
  cellWidth: number;
  cellHeight: number;
  cells: HeroCell[];
}

/** As many columns of at least minCellWidth as fit, between 1 and maxColumns. */
export function heroColumns(width: number): number {
  const fit = Math.floor((width + HERO.gap) / (HERO.minCellWidth + HERO.gap));
  return Math.min(HERO.maxColumns, Math.max(1, fit));
}

/**
 * Masonry of 16:9 cells filling a width x height area. Odd columns start half a cell higher so
 * the rows do not line up, and every column gets enough cells to cover the area including that
 * offset. Neighbouring cells never show the same clip.
 */
export function heroLayout(width: number, height: number): HeroLayout {
  if (width <= 0 || height <= 0) return { columns: 0, cellWidth: 0, cellHeight: 0, cells: [] };
  const columns = heroColumns(width);
  const cellWidth = (width - HERO.gap * (columns - 1)) / columns;
  const cellHeight = cellWidth / HERO.aspect;
  const cells: HeroCell[] = [];
  for (let col = 0; col < columns; col++) {
    const offset = col % 2 === 1 ? -cellHeight / 2 : 0;
    const rows = Math.ceil((height - offset) / (cellHeight + HERO.gap));
    for (let row = 0; row < rows; row++) {
      const clip = HERO_CLIPS[(row * columns + col) % HERO_CLIPS.length]!;
      cells.push({
        key: `${col}:${row}`,
        x: col * (cellWidth + HERO.gap),
        y: offset + row * (cellHeight + HERO.gap),
        width: cellWidth,
        height: cellHeight,
        clip,
      });
    }
  }
  return { columns, cellWidth, cellHeight, cells };
}

/** The 1080p source only on very wide windows, where 720p would look soft. */
export const heroSource = (clip: string, windowWidth: number) => `/hero/${clip}-${windowWidth > HERO.hdAboveWidth ? 1080 : 720}.mp4`;
