import { describe, expect, it } from 'vitest';
import { normalizeSearchText, replaceEmoji } from './emoji';

describe('emoji replacement', () => {
  it('names common emoji and trims', () => {
    expect(normalizeSearchText('  🐶 in the park ')).toBe('dog in the park');
    expect(normalizeSearchText('red🚗')).toBe('red car');
  });

  it('ignores variation selectors and skin tones', () => {
    expect(normalizeSearchText('☀️ and ❄️')).toBe('sun and snow');
    expect(normalizeSearchText('👍🏽')).toBe('thumbs up');
  });

  it('names a joined sequence by its first known part', () => {
    expect(normalizeSearchText('👩‍🚀')).toBe('woman');
  });

  it('drops emoji it has no name for', () => {
    expect(normalizeSearchText('kite 🫠 sky')).toBe('kite sky');
    expect(normalizeSearchText('🫠')).toBe('');
  });

  it('leaves text without emoji alone (apart from spacing)', () => {
    expect(replaceEmoji('Über 3 horses, café #1')).toBe('Über 3 horses, café #1');
    expect(normalizeSearchText('a\n\n dog')).toBe('a dog');
  });
});
