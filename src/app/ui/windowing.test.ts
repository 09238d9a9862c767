import { describe, expect, it } from 'vitest';
import { INVOICE_LIST_HEIGHT, INVOICE_ROW_HEIGHT } from '../../contract';
import { rowWindow, viewportHeight } from './windowing';

const invoices = (count: number, scrollTop: number, overscan = 0) =>
  rowWindow({ scrollTop, viewportHeight: INVOICE_LIST_HEIGHT, rowHeight: INVOICE_ROW_HEIGHT, count, overscan });

describe('rowWindow', () => {
  it('mounts the rows a 400 px list of 60 px rows shows at the top', () => {
    // 400 / 60 = 6.67: rows 0 to 6 are (partly) visible.
    expect(invoices(100, 0)).toEqual({ start: 0, end: 7, offset: 0, totalHeight: 6000 });
  });

  it('follows the scroll position, with overscan on both sides', () => {
    expect(invoices(100, 610)).toEqual({ start: 10, end: 17, offset: 600, totalHeight: 6000 });
    expect(invoices(100, 610, 3)).toEqual({ start: 7, end: 20, offset: 420, totalHeight: 6000 });
  });

  it('clamps at the end and past it (a list that shrank while scrolled)', () => {
    const atEnd = invoices(100, 6000 - 400, 2);
    expect(atEnd.end).toBe(100);
    expect(invoices(20, 5000, 2)).toEqual(invoices(20, 1200 - 400, 2));
  });

  it('renders every row of a short list and nothing of an empty one', () => {
    expect(invoices(3, 0, 3)).toEqual({ start: 0, end: 3, offset: 0, totalHeight: 180 });
    expect(invoices(0, 0)).toEqual({ start: 0, end: 0, offset: 0, totalHeight: 0 });
    expect(rowWindow({ scrollTop: -50, viewportHeight: 100, rowHeight: 50, count: 10, overscan: 0 })).toMatchObject({ start: 0, end: 2 });
  });
});

describe('viewportHeight', () => {
  it('is the list height once the rows fill it, and the rows’ height before', () => {
    expect(viewportHeight(100, INVOICE_ROW_HEIGHT, INVOICE_LIST_HEIGHT)).toBe(400);
    expect(viewportHeight(2, INVOICE_ROW_HEIGHT, INVOICE_LIST_HEIGHT)).toBe(120);
    expect(viewportHeight(0, INVOICE_ROW_HEIGHT, INVOICE_LIST_HEIGHT)).toBe(0);
  });
});
