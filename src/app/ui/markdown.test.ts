import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown';

describe('parseMarkdown', () => {
  it('reads a product description: a bulleted list with bold', () => {
    expect(parseMarkdown('- 60,000 credits a month\n- **25 hours** of storage')).toEqual([
      {
        type: 'list',
        ordered: false,
        items: [
          [{ type: 'text', text: '60,000 credits a month' }],
          [
            { type: 'strong', children: [{ type: 'text', text: '25 hours' }] },
            { type: 'text', text: ' of storage' },
          ],
        ],
      },
    ]);
  });

  it('joins paragraph lines, splits paragraphs on blank lines, and ends a list at a paragraph', () => {
    expect(parseMarkdown('Line one\nline two\n\nSecond\n* a\n* b\nAfter')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Line one line two' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'Second' }] },
      { type: 'list', ordered: false, items: [[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }]] },
      { type: 'paragraph', children: [{ type: 'text', text: 'After' }] },
    ]);
  });

  it('reads numbered lists, a switch of list kind, headings and continued items', () => {
    expect(parseMarkdown('## Plan\n1. one\n   more\n2) two\n- bullet')).toEqual([
      { type: 'heading', children: [{ type: 'text', text: 'Plan' }] },
      { type: 'list', ordered: true, items: [[{ type: 'text', text: 'one more' }], [{ type: 'text', text: 'two' }]] },
      { type: 'list', ordered: false, items: [[{ type: 'text', text: 'bullet' }]] },
    ]);
  });

  it('handles Windows line ends and empty input', () => {
    expect(parseMarkdown('')).toEqual([]);
    expect(parseMarkdown('a\r\n\r\nb')).toHaveLength(2);
  });
});

describe('parseInline', () => {
  it('reads italic, code and nested emphasis', () => {
    expect(parseInline('*fast* and `code` and **very _much_**')).toEqual([
      { type: 'em', children: [{ type: 'text', text: 'fast' }] },
      { type: 'text', text: ' and ' },
      { type: 'code', text: 'code' },
      { type: 'text', text: ' and ' },
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'very ' },
          { type: 'em', children: [{ type: 'text', text: 'much' }] },
        ],
      },
    ]);
  });

  it('keeps unmatched markers, snake_case, multiplication and escapes as text', () => {
    expect(parseInline('2 * 3 = 6, a_b_c, **open')).toEqual([{ type: 'text', text: '2 * 3 = 6, a_b_c, **open' }]);
    expect(parseInline('\\*not em\\*')).toEqual([{ type: 'text', text: '*not em*' }]);
  });

  it('keeps HTML as text: nothing is ever read as markup', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([{ type: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });

  it('makes links only to web and mail addresses', () => {
    expect(parseInline('[docs](https://clipseek.app/docs)')).toEqual([
      { type: 'link', href: 'https://clipseek.app/docs', children: [{ type: 'text', text: 'docs' }] },
    ]);
    expect(parseInline('[click](javascript:alert%281%29)')).toEqual([{ type: 'text', text: 'click' }]);
    expect(safeHref('mailto:sales@clipseek.app')).toBe('mailto:sales@clipseek.app');
    expect(safeHref(' data:text/html,x')).toBeNull();
  });
});
