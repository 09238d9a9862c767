import { spokenForms } from '../ingest/spokenForms';
import type { RelatedWordsPort, WordRelation } from '../ports';

/**
 * Query expansion by meaning for transcript search (issue 40): people remember the gist of what
 * was said, not the words, so each query word and collocation is also matched through the words
 * WordNet relates to it (physician ≈ doctor, automobile ≈ car, beverage → coffee; more weakly
 * loaf → bread, bake ~ baker). The query is read in its spoken forms (spokenForms.ts: 'Mr.' and
 * 'mister', '25' and 'twenty five', "didn't" and 'did not' are one), and negation is noted so a
 * segment saying the opposite ranks below one saying the same.
 */

/** How much a match through each relation counts, against 1 for the query's own word. */
export const RELATION_WEIGHT: Record<WordRelation, number> = {
  synonym: 0.85,
  hyponym: 0.75,
  hypernym: 0.55,
  similar: 0.5,
  derivation: 0.5,
};
/** A match weighing less than this is through a weak relation: on its own it never makes a result high confidence. */
export const STRONG_WEIGHT = 0.7;
/** A later sense of the query word counts this much of its first. */
const LATER_SENSE = 0.8;
/** Alternatives kept per query word, and per query (each is a column of the transcript statement). */
const PER_WORD = 10;
const PER_QUERY = 40;
/**
 * A weak relation to a word used more than this (WordNet's tagged counts: 'time' 603, 'place' 366,
 * 'hour' 115; 'drink' 69, 'bread' 3) is left out: 'sunset, a kind of time' says nothing, and
 * every segment saying 'time' became a candidate (the transcript statement took twice as long).
 */
const WEAK_MAX_USES = 80;
/** Longest collocation looked up, in words ('bird of prey'). */
const MAX_COLLOCATION = 3;

/** Words that say a statement is negated. */
export const NEGATORS = new Set(['not', 'no', 'never', 'nothing', 'nobody', 'none', 'neither', 'nor', 'nowhere']);
/**
 * Words not expanded: function words (Postgres's English configuration drops them too) and light
 * verbs whose relations are most of the language ('go' has 164).
 */
const NOT_EXPANDED = new Set(
  (
    'a an the and or but if of to in on at by for with from up down out off over under into onto about as than then so ' +
    'i me my we us our you your he him his she her it its they them their this that these those there here who whom ' +
    'what which when where why how all any some each every both few more most other such own same too very just ' +
    'can will would shall should may might must could be am is are was were been being do does did done doing have has ' +
    'had having go goes went gone going get gets got getting make makes made take took taken give gave put set come came ' +
    'say says said tell told let lets know knew thing things one ones also yes well oh okay really'
  ).split(' '),
);

export interface Alternative {
  /** The related word or collocation, as WordNet writes it ('medical practitioner'). */
  text: string;
  relation: WordRelation;
  /** RELATION_WEIGHT, less for a later sense of the query word. */
  weight: number;
  /** Which of the query word's senses it came from (0: the most used). */
  sense: number;
}

export interface ExpandedGroup {
  /** The query word or collocation (in its spoken form) the alternatives stand for. */
  text: string;
  alternatives: Alternative[];
}

export interface QueryExpansion {
  /** The query in its spoken forms. */
  spoken: string;
  /** Whether the query is negated ('did not buy'). */
  negated: boolean;
  groups: ExpandedGroup[];
}

/** The query's words and collocations, each with what it can also be said as, strongest first. */
export function expandQuery(text: string, words: RelatedWordsPort | null): QueryExpansion {
  const spoken = spokenForms(text);
  const tokens = spoken.match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
  const negated = tokens.some((t) => NEGATORS.has(t));
  const groups: ExpandedGroup[] = [];
  if (!words) return { spoken, negated, groups };
  let budget = PER_QUERY;
  for (let i = 0; i < tokens.length;) {
    // the longest collocation WordNet has from here ('ice cream', 'bird of prey'), else the word
    let len = 1;
    for (let n = Math.min(MAX_COLLOCATION, tokens.length - i); n > 1; n--)
      // not of function words and light verbs alone ('get it', 'take off' say little)
      if (tokens.slice(i, i + n).some((t) => !NOT_EXPANDED.has(t)) && words.isCollocation(tokens.slice(i, i + n).join(' '))) {
        len = n;
        break;
      }
    const phrase = tokens.slice(i, i + len).join(' ');
    i += len;
    if (len === 1 && (NOT_EXPANDED.has(phrase) || NEGATORS.has(phrase) || /^\d/.test(phrase))) continue;
    const seen = new Set([phrase]);
    const alternatives: Alternative[] = [];
    for (const r of words.related(phrase)) {
      const alt = spokenForms(r.text);
      if (seen.has(alt) || NOT_EXPANDED.has(alt) || !/\p{L}/u.test(alt)) continue;
      seen.add(alt);
      if (RELATION_WEIGHT[r.relation] < STRONG_WEIGHT && r.uses > WEAK_MAX_USES) continue;
      alternatives.push({
        text: alt,
        relation: r.relation,
        sense: r.sense,
        weight: RELATION_WEIGHT[r.relation] * (r.sense ? LATER_SENSE : 1),
      });
    }
    // the most used sense's relations first (WordNet's order), strongest first within it
    alternatives.sort((a, b) => a.sense - b.sense || b.weight - a.weight);
    const kept = alternatives.slice(0, Math.min(PER_WORD, budget));
    budget -= kept.length;
    if (kept.length) groups.push({ text: phrase, alternatives: kept });
  }
  return { spoken, negated, groups };
}

/** Whether a transcript's text is negated (the raw text: 'didn't' as well as 'did not'). */
export function isNegated(text: string): boolean {
  return /\b(?:not|no|never|nothing|nobody|none|neither|nor|nowhere|cannot)\b|n['\u2019]t\b/i.test(text);
}
