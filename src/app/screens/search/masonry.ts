import { RESULTS_GRID } from '../../../contract';

/** Results grid maths (spec section 2 and 9): columns of at least 200 px, 16 px apart, 8 px side margins. */

export type CellOrientation = 'horizontal' | 'vertical';

export interface MasonryOptions {
  minCellWidth: number;
  gap: number;
  sideMargin: number;
  bottomPadding: number;
  /** Height of the text under each cell's picture. */
  bodyHeight: number;
}

export const MASONRY_DEFAULTS: MasonryOptions = {
  minCellWidth: RESULTS_GRID.minCellWidth,
  gap: RESULTS_GRID.gap,
  sideMargin: RESULTS_GRID.sideMargin,
  bottomPadding: RESULTS_GRID.bottomPadding,
  bodyHeight: 52,
};

/** A cell is vertical when its video is taller than wide; unknown sizes count as horizontal. */
export const orientationOf = (width: number, height: number): CellOrientation => (width > 0 && height > width ? 'vertical' : 'horizontal');

/** Picture height over width: 16:9 landscape, 9:16 portrait. */
export const pictureRatio = (o: CellOrientation) => (o === 'vertical' ? 16 / 9 : 9 / 16);

export function columnCount(width: number, o: Pick<MasonryOptions, 'minCellWidth' | 'gap' | 'sideMargin'> = MASONRY_DEFAULTS) {
  const inner = width - 2 * o.sideMargin;
  return Math.max(1, Math.floor((inner + o.gap) / (o.minCellWidth + o.gap)));
}

export interface MasonryCell {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Height of the picture part of the cell. */
  pictureHeight: number;
  column: number;
}

export interface MasonryLayout {
  columns: number;
  cellWidth: number;
  cells: MasonryCell[];
  /** Container height, bottom padding included. */
  height: number;
}

/** Places cells in order, each into the currently shortest column (leftmost on a tie). */
export function layoutMasonry(
  orientations: readonly CellOrientation[],
  width: number,
  o: MasonryOptions = MASONRY_DEFAULTS,
): MasonryLayout {
  const columns = columnCount(width, o);
  const cellWidth = Math.max(0, (width - 2 * o.sideMargin - (columns - 1) * o.gap) / columns);
  const tops = new Array<number>(columns).fill(0);
  const cells = orientations.map((orientation) => {
    let column = 0;
    for (let c = 1; c < columns; c++) if (tops[c]! < tops[column]!) column = c;
    const pictureHeight = Math.round(cellWidth * pictureRatio(orientation));
    const height = pictureHeight + o.bodyHeight;
    const cell = { x: o.sideMargin + column * (cellWidth + o.gap), y: tops[column]!, width: cellWidth, height, pictureHeight, column };
    tops[column] = tops[column]! + height + o.gap;
    return cell;
  });
  const content = cells.length ? Math.max(...tops) - o.gap : 0;
  return { columns, cellWidth, cells, height: content + o.bottomPadding };
}
