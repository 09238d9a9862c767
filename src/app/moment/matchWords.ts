/**
 * The words of a search found again in a line of the transcript or visual summary, so the panel
 * can mark them: whole words, case-insensitive, a query word also matching longer forms of itself
 * ('horse' marks 'horses'), and small function words left alone.
 */

export interface TextPart {
  text: string;
  match: boolean;
}

const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/** The query's words worth marking, lower case, longest first. */
export function matchTerms(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length >= 2 && !SMALL_WORDS.has(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` cut into runs, those that are (a longer form of) one of `terms` marked. */
export function matchParts(text: string, terms: readonly string[]): TextPart[] {
  if (!terms.length || !text) return [{ text, match: false }];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escape).join('|')})[\\p{L}\\p{N}]{0,3}(?![\\p{L}\\p{N}])`, 'giu');
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) parts.push({ text: text.slice(at, m.index), match: false });
    parts.push({ text: m[0], match: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
