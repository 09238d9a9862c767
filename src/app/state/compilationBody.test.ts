import { describe, expect, it } from 'vitest';
import { compilationClips, publishFields } from './compilation';

describe('the compilation call of a publish choice (issue 39)', () => {
  it('asks what it always asked for the defaults', () => {
    expect(publishFields({ aspect: 'source', captions: {} })).toEqual({});
    expect(publishFields({})).toEqual({});
  });

  it('sends the aspect and only the captions chosen', () => {
    expect(publishFields({ aspect: '9:16', captions: { burn: 'bar', soft: true } })).toEqual({
      aspect: '9:16',
      captions: { burn: 'bar', soft: true },
    });
    expect(publishFields({ aspect: '1:1', captions: { soft: false, burn: 'words' } })).toEqual({
      aspect: '1:1',
      captions: { burn: 'words' },
    });
  });

  it("sends a clip's fixed framing, and nothing of its media's length", () => {
    const clip = { libraryId: 'L', mediaId: 'M', start: 1, end: 2, mediaDuration: 9 };
    expect(compilationClips([clip, { ...clip, framing: { x: 0.2, y: 0.5 } }])).toEqual([
      { libraryId: 'L', mediaId: 'M', start: 1, end: 2 },
      { libraryId: 'L', mediaId: 'M', start: 1, end: 2, framing: { x: 0.2, y: 0.5 } },
    ]);
  });
});
