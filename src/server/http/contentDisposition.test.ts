import { describe, expect, it } from 'vitest';
import { contentDisposition } from './contentDisposition';

/** The exact name as a client reads it back from filename* (RFC 5987: charset''percent-encoded). */
const exactOf = (header: string) => decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(header)![1]!);

describe('contentDisposition', () => {
  it('keeps an ASCII name and gives the exact one back through filename*', () => {
    expect(contentDisposition('cut.mp4')).toBe(`attachment; filename="cut.mp4"; filename*=UTF-8''cut.mp4`);
    expect(contentDisposition('a.mp4', 'inline')).toMatch(/^inline; /);
  });

  it('escapes what RFC 5987 does not allow bare, and a name that is not ASCII', () => {
    const name = `Zoë's "take" (2)*.mp4`;
    const header = contentDisposition(name);
    const star = /filename\*=UTF-8''(\S+)$/.exec(header)![1]!;
    // attr-char only: ALPHA DIGIT ! # $ & + - . ^ _ ` | ~ and percent escapes
    expect(star).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(exactOf(header)).toBe(name);
    expect(/filename="([^"]*)"/.exec(header)![1]).toBe(`Zo_'s _take_ (2)*.mp4`);
    expect(header).not.toMatch(/[^\x20-\x7e]/);
  });
});
