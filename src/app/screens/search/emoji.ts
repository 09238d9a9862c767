/**
 * Text search replaces emoji by their names (spec section 4): the full CLDR names of Unicode's emoji
 * data, as the `unicode-emoji-json` package (MIT, maintained) ships them ("🐶" is "dog face",
 * "👩‍🚀" "woman astronaut"). Its table (~32 kB gzipped) loads only when a text holds an emoji.
 * A skin tone or presentation selector does not change a name; a joined sequence the data does not
 * name is named by its parts; a pictograph without any name carries nothing a search can match and
 * is dropped.
 */
type EmojiData = Record<string, { name: string }>;

/** Presentation selectors (text / emoji) say how to draw, not what it is. */
const SELECTORS = /[\uFE0E\uFE0F]/gu;
const SKIN_TONES = /[\u{1F3FB}-\u{1F3FF}]/gu;
const ZWJ = '\u200D';
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

let names: Map<string, string> | null = null;
let loading: Promise<void> | null = null;

const keyOf = (emoji: string) => emoji.replace(SELECTORS, '');

/** Indexes the package's table by emoji without presentation selectors; names lose their colons ("flag: France"). */
export function indexEmojiNames(data: EmojiData): Map<string, string> {
  return new Map(Object.entries(data).map(([emoji, { name }]) => [keyOf(emoji), name.replace(/:/g, '').trim()]));
}

/** Loads the names once (a separate chunk of the app); a failed load leaves emoji unnamed (dropped). */
export function loadEmojiNames(): Promise<void> {
  loading ??= import('unicode-emoji-json/data-by-emoji.json').then(
    (m) => void (names = indexEmojiNames((m as { default: EmojiData }).default)),
    () => void (names = new Map()),
  );
  return loading;
}

export const emojiNamesLoaded = () => names !== null;
export const hasEmoji = (text: string) => PICTOGRAPH.test(text);

function nameOf(segment: string, table: Map<string, string>): string | null {
  const plain = keyOf(segment);
  const toneless = plain.replace(SKIN_TONES, '');
  const found = table.get(plain) ?? table.get(toneless);
  if (found) return found;
  if (!toneless.includes(ZWJ)) return null;
  const parts = toneless
    .split(ZWJ)
    .map((p) => table.get(p))
    .filter(Boolean);
  return parts.length ? parts.join(' ') : null;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Replaces each emoji by its name (unnamed ones are dropped) and spaces it from the words beside it. */
export function replaceEmoji(text: string, table: Map<string, string> = names ?? new Map()): string {
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    if (!PICTOGRAPH.test(segment)) {
      out += segment;
      continue;
    }
    const name = nameOf(segment, table);
    out += name ? ` ${name} ` : ' ';
  }
  return out;
}

/** The text sent to the server: emoji named, whitespace collapsed, trimmed. Names must be loaded first (loadEmojiNames). */
export const normalizeSearchText = (text: string) => replaceEmoji(text).replace(/\s+/g, ' ').trim();
