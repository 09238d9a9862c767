import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HERO } from '../../contract';
import { HERO_CLIPS, heroColumns, heroLayout, heroSource } from './heroLayout';

describe('hero masonry', () => {
  it('uses as many columns of at least 290 px as fit, never more than 2', () => {
    expect(heroColumns(200)).toBe(1);
    expect(heroColumns(589)).toBe(1);
    expect(heroColumns(590)).toBe(2);
    expect(heroColumns(4000)).toBe(2);
  });

  it('lays out 16:9 cells separated by the gap', () => {
    const { columns, cellWidth, cellHeight, cells } = heroLayout(700, 900);
    expect(columns).toBe(2);
    expect(cellWidth).toBe((700 - HERO.gap) / 2);
    expect(cellWidth / cellHeight).toBeCloseTo(16 / 9);
    const first = cells.filter((c) => c.x === 0);
    expect(first[1]!.y - first[0]!.y).toBeCloseTo(cellHeight + HERO.gap);
    const second = cells.find((c) => c.x > 0)!;
    expect(second.x).toBeCloseTo(cellWidth + HERO.gap);
    for (const c of cells) expect(c.width).toBeGreaterThanOrEqual(HERO.minCellWidth);
  });

  it('covers the whole height in every column, the second one offset like a masonry', () => {
    const height = 1000;
    const { cells, columns } = heroLayout(800, height);
    for (let col = 0; col < columns; col++) {
      const inColumn = cells.filter((c) => c.key.startsWith(`${col}:`));
      expect(Math.min(...inColumn.map((c) => c.y))).toBeLessThanOrEqual(0);
      expect(Math.max(...inColumn.map((c) => c.y + c.height))).toBeGreaterThanOrEqual(height);
    }
    expect(cells.find((c) => c.key === '1:0')!.y).toBeLessThan(0);
  });

  it('never shows the same clip in touching cells', () => {
    const { cells } = heroLayout(800, 2000);
    for (const a of cells)
      for (const b of cells) {
        if (a === b) continue;
        const touchX = Math.abs(a.x - b.x) <= a.width + HERO.gap + 1;
        const touchY = a.y < b.y + b.height + HERO.gap && b.y < a.y + a.height + HERO.gap;
        if (touchX && touchY) expect(a.clip).not.toBe(b.clip);
      }
  });

  it('lays out nothing in an unmeasured area', () => {
    expect(heroLayout(0, 500).cells).toEqual([]);
  });

  it('picks the 1080p source only above 3800 px of window width', () => {
    expect(heroSource('aurora', 3800)).toBe('/hero/aurora-720.mp4');
    expect(heroSource('aurora', 3801)).toBe('/hero/aurora-1080.mp4');
  });

  it('ships every clip in both sizes, small enough to download quickly', () => {
    const publicDir = path.resolve(__dirname, '../../../public');
    let total = 0;
    for (const clip of HERO_CLIPS)
      for (const width of [720, 3801]) {
        const file = path.join(publicDir, heroSource(clip, width));
        expect(existsSync(file), file).toBe(true);
        total += statSync(file).size;
      }
    expect(total).toBeLessThan(1.5 * 1024 * 1024);
  });
});
