import { describe, expect, it } from 'vitest';
import { checkTranscriptText, MSG_TRANSCRIPT, TRANSCRIPT_TEXT_MAX } from './transcripts';

describe('transcript text', () => {
  it('saves text trimmed, with runs of spaces as one, in NFC', () => {
    expect(checkTranscriptText('  the   quick  brown fox ')).toEqual({ ok: true, text: 'the quick brown fox' });
    expect(checkTranscriptText('caf\u0065\u0301')).toEqual({ ok: true, text: 'caf\u00e9' });
    expect(checkTranscriptText('non\u00a0breaking')).toEqual({ ok: true, text: 'non breaking' });
    expect(checkTranscriptText('emoji 🎬 ok')).toEqual({ ok: true, text: 'emoji 🎬 ok' });
  });

  it('refuses empty lines', () => {
    for (const s of ['', '   ', '\u00a0']) expect(checkTranscriptText(s)).toEqual({ ok: false, message: MSG_TRANSCRIPT.empty });
  });

  it('refuses control characters, line breaks and tabs', () => {
    for (const s of ['a\u0000b', 'two\nlines', 'a\tb', 'a\rb', 'del\u007f', 'c1\u0085', 'ls\u2028', 'ps\u2029'])
      expect(checkTranscriptText(s)).toEqual({ ok: false, message: MSG_TRANSCRIPT.controlCharacters });
  });

  it('refuses half a surrogate pair', () => {
    expect(checkTranscriptText('a \ud800 b')).toEqual({ ok: false, message: MSG_TRANSCRIPT.invalidCharacters });
    expect(checkTranscriptText('a \udc00 b')).toEqual({ ok: false, message: MSG_TRANSCRIPT.invalidCharacters });
  });

  it('counts characters, not UTF-16 units, up to the limit', () => {
    expect(checkTranscriptText('🎬'.repeat(TRANSCRIPT_TEXT_MAX)).ok).toBe(true);
    expect(checkTranscriptText('x'.repeat(TRANSCRIPT_TEXT_MAX + 1))).toEqual({
      ok: false,
      message: MSG_TRANSCRIPT.tooLong(TRANSCRIPT_TEXT_MAX + 1),
    });
    // spaces that collapse do not count
    expect(checkTranscriptText(`${'x'.repeat(TRANSCRIPT_TEXT_MAX)}    `).ok).toBe(true);
  });
});
