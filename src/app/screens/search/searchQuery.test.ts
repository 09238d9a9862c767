import { describe, expect, it } from 'vitest';
import { defaultResultType, hasSearchTerms, parseLibs, parseSearchQuery, resolveResultType, serializeSearchQuery } from './searchQuery';

const parse = (qs: string, unified = false) => parseSearchQuery(new URLSearchParams(qs), unified);

describe('search query string', () => {
  it('reads libs, text, moment, media and search', () => {
    expect(parse('libs=a,b&text=dog%20park&moment=m_1&media=x&search=transcript')).toEqual({
      libs: ['a', 'b'],
      text: 'dog park',
      moment: 'm_1',
      image: null,
      media: 'x',
      search: 'transcript',
      open: null,
    });
  });

  it('gives empty values for a bare /search', () => {
    expect(parse('')).toEqual({ libs: [], text: '', moment: null, image: null, media: null, search: null, open: null });
  });

  it('drops blank and repeated library ids and keeps their order', () => {
    expect(parseLibs(' b, a ,,b, ')).toEqual(['b', 'a']);
    expect(parseLibs(null)).toEqual([]);
  });

  it('falls back to visual for an unknown type, and for unified where the feature flag turns it off', () => {
    expect(resolveResultType('audio', true)).toBe('visual');
    expect(resolveResultType(null, true)).toBeNull();
    expect(resolveResultType('', true)).toBeNull();
    expect(resolveResultType('unified', false)).toBe('visual');
    expect(resolveResultType('unified', true)).toBe('unified');
    expect(resolveResultType('transcript', false)).toBe('transcript');
  });

  it('searches what is seen and said together by default where a library has speech (issue 37)', () => {
    expect(defaultResultType(true, true)).toBe('unified');
    expect(defaultResultType(false, true)).toBe('visual');
    expect(defaultResultType(true, false)).toBe('visual');
  });

  it('writes only what is set, and leaves an unchosen type out (a chosen one stays, visual too)', () => {
    expect(serializeSearchQuery({ libs: [], text: '', moment: null, image: null, media: null, search: null, open: null }).toString()).toBe(
      '',
    );
    expect(
      serializeSearchQuery({ libs: [], text: '', moment: null, image: null, media: null, search: 'visual', open: null }).toString(),
    ).toBe('search=visual');
    const qs = serializeSearchQuery({
      libs: ['a', 'b'],
      text: 'a dog',
      moment: null,
      image: null,
      media: 'm',
      search: 'unified',
      open: null,
    });
    expect(qs.toString()).toBe('libs=a%2Cb&text=a+dog&media=m&search=unified');
  });

  it('round-trips', () => {
    const q = {
      libs: ['l1', 'l2'],
      text: 'kite & sky?',
      moment: 'm_abc_0_4000',
      image: '0123456789abcdef',
      media: null,
      search: 'transcript' as const,
      open: `m_${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}_1000_2500`,
    };
    expect(parseSearchQuery(serializeSearchQuery(q), false)).toEqual(q);
  });

  it('reads a query image only from an id of the image store', () => {
    expect(parse('image=0123456789abcdef').image).toBe('0123456789abcdef');
    expect(parse('image=data:image/png;base64,AA==').image).toBeNull();
    expect(parse('image=../../etc').image).toBeNull();
  });

  it('reads an open moment dialog only from a moment id', () => {
    const id = `m_${'a'.repeat(8)}-0000-0000-0000-${'b'.repeat(12)}_0_4000`;
    expect(parse(`text=dog&open=${id}`).open).toBe(id);
    expect(parse('text=dog&open=nonsense').open).toBeNull();
  });

  it('counts text, a moment or an image as terms, but not a media filter alone', () => {
    expect(hasSearchTerms({ text: '  ', moment: null, image: null })).toBe(false);
    expect(hasSearchTerms({ text: 'dog', moment: null, image: null })).toBe(true);
    expect(hasSearchTerms({ text: '', moment: 'm_1', image: null })).toBe(true);
    expect(hasSearchTerms({ text: '', moment: null, image: '0123456789abcdef' })).toBe(true);
  });
});
