import { beforeAll, describe, expect, it } from 'vitest';
import { emojiNamesLoaded, hasEmoji, loadEmojiNames, normalizeSearchText, replaceEmoji } from './emoji';

describe('emoji replacement', () => {
  beforeAll(async () => {
    expect(emojiNamesLoaded()).toBe(false);
    await loadEmojiNames();
    expect(emojiNamesLoaded()).toBe(true);
  });

  it("names emoji by Unicode's full names and trims", () => {
    expect(normalizeSearchText('  🐶 in the park ')).toBe('dog face in the park');
    expect(normalizeSearchText('red🚗')).toBe('red automobile');
    expect(normalizeSearchText('🦒 and 🦓')).toBe('giraffe and zebra');
  });

  it('ignores presentation selectors and skin tones', () => {
    expect(normalizeSearchText('☀️ and ❄️')).toBe('sun and snowflake');
    expect(normalizeSearchText('☀ and ❄')).toBe('sun and snowflake');
    expect(normalizeSearchText('👍🏽')).toBe('thumbs up');
  });

  it('names joined sequences, flags and recent emoji from the data', () => {
    expect(normalizeSearchText('👩‍🚀')).toBe('woman astronaut');
    expect(normalizeSearchText('👩🏾‍🚀')).toBe('woman astronaut');
    expect(normalizeSearchText('🇫🇷 beach')).toBe('flag France beach');
    expect(normalizeSearchText('kite 🫠 sky')).toBe('kite melting face sky');
  });

  it('drops a pictograph that has no name', () => {
    // U+1FAFF is Extended_Pictographic but not (yet) an emoji
    expect(normalizeSearchText('kite \u{1FAFF} sky')).toBe('kite sky');
    expect(normalizeSearchText('\u{1FAFF}')).toBe('');
  });

  it('leaves text without emoji alone (apart from spacing)', () => {
    expect(hasEmoji('Über 3 horses, café #1')).toBe(false);
    expect(replaceEmoji('Über 3 horses, café #1')).toBe('Über 3 horses, café #1');
    expect(normalizeSearchText('a\n\n dog')).toBe('a dog');
    expect(hasEmoji('a 🐶')).toBe(true);
  });
});
