/**
 * Spoken forms (issue 37, item 13): one way of writing what can be written several ways, applied to
 * a transcript before it is indexed and to a query before it is matched, so either way of writing
 * finds the other. Speech to text writes 'mister', people type 'Mr.'; it writes 'twenty five', people
 * type '25'; 'won't' was indexed as the word 'won'. The canonical forms:
 *
 * - titles as words: mr/mr./mister -> mister, mrs/mrs./missus/missis -> missus, dr/dr. -> doctor,
 *   prof./prof -> professor, ok -> okay;
 * - numbers as digits: 'twenty five', 'twenty-five' -> 25, 'one hundred and five' -> 105, 'a thousand' ->
 *   1000, '1,000' -> 1000, years said in pairs 'nineteen eighty four' -> 1984; ordinals likewise
 *   ('twenty first' -> 21st, 'third' -> 3rd), except 'second', which is also a unit of time ('2nd' -> second);
 * - contractions spelt out: don't -> do not, won't -> will not, I'm -> I am, they've -> they have, and
 *   'gonna', 'wanna', 'gotta' as going to, want to, got to.
 *
 * The result is lower case and is only ever indexed, never shown. SPOKEN_FORMS_VERSION names these
 * rules: segments normalised under older ones are normalised again (IndexRepository.renormaliseSpoken).
 */
export const SPOKEN_FORMS_VERSION = 1;

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
/** A number said as one word ('two', 'twelve', 'forty'), or undefined. */
export const cardinalWord = (word: string): number | undefined => UNITS[word] ?? TENS[word];
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1_000_000, billion: 1_000_000_000 };
const ORDINAL_UNITS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
};
const ORDINAL_TENS: Record<string, number> = {
  twentieth: 20,
  thirtieth: 30,
  fortieth: 40,
  fiftieth: 50,
  sixtieth: 60,
  seventieth: 70,
  eightieth: 80,
  ninetieth: 90,
};
const ORDINAL_SCALES: Record<string, number> = { hundredth: 100, thousandth: 1000, millionth: 1_000_000 };

const TITLES: Record<string, string> = {
  mr: 'mister',
  mister: 'mister',
  mrs: 'missus',
  missus: 'missus',
  missis: 'missus',
  dr: 'doctor',
  prof: 'professor',
  ok: 'okay',
};

/** Contractions whose first part changes ("won't" is "will not"); the rest are the word plus a suffix. */
const CONTRACTIONS: Record<string, string> = {
  "won't": 'will not',
  "can't": 'can not',
  cannot: 'can not',
  "shan't": 'shall not',
  "ain't": 'is not',
  "let's": 'let us',
  gonna: 'going to',
  wanna: 'want to',
  gotta: 'got to',
};
const SUFFIXES: Array<[RegExp, string]> = [
  [/n't$/, ' not'],
  [/'re$/, ' are'],
  [/'ve$/, ' have'],
  [/'ll$/, ' will'],
  [/'m$/, ' am'],
  [/'d$/, ' would'],
];
/** "X's" is "X is" only after these (elsewhere it is a possessive, or "has"). */
const IS_BEFORE_S = new Set(['it', 'that', 'there', 'here', 'what', 'where', 'who', 'how', 'he', 'she', 'when', 'why']);

const ordinalSuffix = (n: number) => {
  const t = n % 100;
  if (t >= 11 && t <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
};

type Token = { word: string; sep: string };

/** A run of number words from `i`: its value, whether it ends in an ordinal, and how many tokens it took (0: none). */
function readNumber(tokens: Token[], i: number): { value: number; ordinal: boolean; used: number; small: boolean } {
  let total = 0;
  let current = 0;
  let used = 0;
  let any = false;
  /** What the last word was: a later word must be able to follow it ('twenty five', not 'five twenty'). */
  let last: 'none' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale' | 'and' = 'none';
  let ordinal = false;
  let small = true;
  for (let j = i; j < tokens.length; j++) {
    const w = tokens[j]!.word;
    // a number is words in a row: a comma or full stop between them ends it
    if (j > i && /[.,;:!?]/.test(tokens[j - 1]!.sep)) break;
    const next = tokens[j + 1]?.word ?? '';
    // 'a hundred', 'a thousand'
    if (w === 'a' && !any && SCALES[next] !== undefined) {
      current = 1;
      last = 'unit';
      any = true;
      used++;
      continue;
    }
    const numberWord = (x: string) =>
      UNITS[x] !== undefined || TENS[x] !== undefined || ORDINAL_UNITS[x] !== undefined || ORDINAL_TENS[x] !== undefined;
    if (w === 'and' && (last === 'hundred' || last === 'scale') && numberWord(next)) {
      last = 'and';
      used++;
      continue;
    }
    const unit = UNITS[w] ?? ORDINAL_UNITS[w];
    const tens = TENS[w] ?? ORDINAL_TENS[w];
    const scale = SCALES[w] ?? ORDINAL_SCALES[w];
    const isOrdinal = ORDINAL_UNITS[w] !== undefined || ORDINAL_TENS[w] !== undefined || ORDINAL_SCALES[w] !== undefined;
    if (unit !== undefined) {
      const teen = unit >= 10;
      if (last === 'unit' || last === 'teen') break;
      if (last === 'tens' && (teen || unit === 0)) break;
      current += unit;
      last = teen ? 'teen' : 'unit';
    } else if (tens !== undefined) {
      if (last === 'unit' || last === 'teen' || last === 'tens') break;
      current += tens;
      last = 'tens';
    } else if (scale !== undefined) {
      if (!any) break;
      if (scale === 100) {
        if (last === 'hundred' || current === 0 || current >= 100) break;
        current *= 100;
        last = 'hundred';
      } else {
        if (last === 'scale' && current === 0) break;
        total += Math.max(current, 1) * scale;
        current = 0;
        last = 'scale';
      }
      small = false;
    } else break;
    any = true;
    used++;
    if (isOrdinal) {
      ordinal = true;
      break;
    }
  }
  if (last === 'and') used--;
  if (!any) return { value: 0, ordinal: false, used: 0, small };
  return { value: total + current, ordinal, used, small: small && !ordinal };
}

/** Numbers said as words, as digits (see the file's comment). */
function numbersAsDigits(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length;) {
    const n = readNumber(tokens, i);
    if (!n.used) {
      out.push(tokens[i]!);
      i++;
      continue;
    }
    let value = n.value;
    let ordinal = n.ordinal;
    let used = n.used;
    // 'nineteen eighty four', 'twenty twenty': a year said as two numbers from 10 to 99
    const sep = tokens[i + used - 1]!.sep;
    if (n.small && value >= 10 && value <= 99 && !/[.,;:!?]/.test(sep)) {
      const next = readNumber(tokens, i + used);
      if (next.used && next.value >= 10 && next.value <= 99 && (next.small || next.ordinal)) {
        value = value * 100 + next.value;
        ordinal = next.ordinal;
        used += next.used;
      }
    }
    const last = tokens[i + used - 1]!;
    const word = ordinal ? (value === 2 && used === 1 ? 'second' : `${value}${ordinalSuffix(value)}`) : String(value);
    out.push({ word, sep: last.sep });
    i += used;
  }
  return out;
}

/** `text` in its spoken forms, lower case (see the file's comment). */
export function spokenForms(text: string): string {
  const lower = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    // digits grouped in thousands: 1,000,000 -> 1000000
    .replace(/\b(\d{1,3})((?:,\d{3})+)\b/g, (_, a: string, b: string) => a + b.replace(/,/g, ''))
    // a title's full stop ends nothing
    .replace(/\b(mr|mrs|dr|prof)\./g, '$1')
    // '2nd' is also written for 'second'
    .replace(/\b2nd\b/g, 'second');
  // Words (letters, digits and inner apostrophes or hyphens) with what follows each.
  const tokens: Token[] = [];
  const lead = /^[^\p{L}\p{N}]*/u.exec(lower)![0];
  const re = /([\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*)([^\p{L}\p{N}]*)/gu;
  for (const m of lower.slice(lead.length).matchAll(re)) {
    const word = m[1]!;
    const sep = m[2]!;
    const expanded: string[] = [];
    const whole = CONTRACTIONS[word];
    if (whole) expanded.push(...whole.split(' '));
    else {
      const suffix = SUFFIXES.find(([r]) => r.test(word));
      if (suffix) expanded.push(...(word.replace(suffix[0], '') + suffix[1]).split(' ').filter(Boolean));
      else if (word.endsWith("'s") && IS_BEFORE_S.has(word.slice(0, -2))) expanded.push(word.slice(0, -2), 'is');
      else if (
        /^[\p{L}]+(-[\p{L}]+)+$/u.test(word) &&
        word.split('-').every((w) => w in UNITS || w in TENS || w in ORDINAL_UNITS || w in ORDINAL_TENS)
      )
        expanded.push(...word.split('-'));
      else expanded.push(TITLES[word] ?? word);
    }
    expanded.forEach((w, k) => tokens.push({ word: w, sep: k === expanded.length - 1 ? sep : ' ' }));
  }
  return (
    lead +
    numbersAsDigits(tokens)
      .map((t) => t.word + t.sep)
      .join('')
  );
}
