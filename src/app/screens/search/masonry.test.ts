import { describe, expect, it } from 'vitest';
import { columnCount, layoutMasonry, MASONRY_DEFAULTS, orientationOf } from './masonry';

describe('results masonry', () => {
  it('fits as many 200 px columns as the width allows, after 8 px margins and 16 px gaps', () => {
    // 2 * 8 + 200 = 216: one column; 2 * 8 + 2 * 200 + 16 = 432: two.
    expect(columnCount(215)).toBe(1);
    expect(columnCount(431)).toBe(1);
    expect(columnCount(432)).toBe(2);
    expect(columnCount(1000)).toBe(4);
    expect(columnCount(50)).toBe(1);
  });

  it('tells vertical from horizontal by width against height', () => {
    expect(orientationOf(1920, 1080)).toBe('horizontal');
    expect(orientationOf(1080, 1920)).toBe('vertical');
    expect(orientationOf(500, 500)).toBe('horizontal');
    expect(orientationOf(0, 0)).toBe('horizontal');
  });

  it('places each cell in the shortest column and pads the bottom by 200 px', () => {
    const o = { ...MASONRY_DEFAULTS, bodyHeight: 0 };
    // 432 px: two columns of 200 px at x = 8 and 224.
    const l = layoutMasonry(['vertical', 'horizontal', 'horizontal', 'horizontal'], 432, o);
    expect(l.columns).toBe(2);
    expect(l.cellWidth).toBe(200);
    const v = Math.round((200 * 16) / 9);
    const h = Math.round((200 * 9) / 16);
    expect(l.cells.map((c) => [c.x, c.y, c.height])).toEqual([
      [8, 0, v],
      [224, 0, h],
      [224, h + 16, h],
      // Column 1 is now at 2h + 32 = 258, column 0 at v + 16 = 372: the fourth goes right again.
      [224, 2 * (h + 16), h],
    ]);
    // The right column ends lowest: 3h + 2 gaps = 371 against v = 356.
    expect(l.height).toBe(3 * h + 32 + 200);
  });

  it('adds the text under the picture to every cell', () => {
    const l = layoutMasonry(['horizontal'], 216);
    expect(l.cells[0]!.height).toBe(l.cells[0]!.pictureHeight + MASONRY_DEFAULTS.bodyHeight);
  });

  it('is just the bottom padding when empty', () => {
    expect(layoutMasonry([], 800).height).toBe(200);
  });
});
