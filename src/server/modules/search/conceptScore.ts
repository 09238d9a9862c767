/**
 * How well a keyframe shows a parsed query (queryConcepts.ts), on the 0-1 scale of the contract's
 * SEARCH_CONFIDENCE. Evidence for a concept is a detected object or image class whose label the
 * concept maps to (its confidence times the mapping's weight, objects by prominence), or the
 * concept's words read on screen. Evidence for the thing itself (its label, or a kind of it)
 * corroborates: noisy-OR. Evidence from a relative (a label above a specific query word, a
 * sibling, a gloss) does not add up: only the best counts, and a label above the query word
 * (the detector's 'bird' for 'penguin') counts less when the classifier confidently names
 * something the query is not (a bald eagle). Concepts combine as a geometric mean, so a frame
 * holding every concept ranks above one holding some, and a frame missing one stays low. A colour
 * bound to a concept is looked for on the detected object itself (its box's own colours).
 */
import type { FrameLabels } from './visualTerms';
import { wordsOf } from './visualTerms';

export interface ResolvedConcept {
  text: string;
  /** Index label (lower case) -> weight in (0, 1]. */
  targets: Map<string, number>;
  /** Labels that are the thing itself or a kind of it (the rest are relatives). */
  direct: Set<string>;
  /** Labels above the query word (more general). */
  general: Set<string>;
  /** Words matched as they are against on-screen text. */
  literals: string[];
  /** Colours bound to the concept, or the colour a colour concept is. */
  colours: string[];
  count?: number;
  isColour: boolean;
  /** A word nothing in the index's vocabulary maps to: it counts when read on screen, and is not required. */
  optional: boolean;
}

/** A concept nothing shows still leaves this much, so one missing concept lowers a score without zeroing it. */
const MISSING_FLOOR = 0.02;
/** On-screen text that spells the concept. */
const OCR_MATCH = 0.9;
/** A bound colour: the share of the concept's score that depends on the colour being there. */
const COLOUR_SHARE = 0.6;
/** Fewer of the thing than asked for ('two men', one man seen). */
const COUNT_SHORT = 0.6;
/** Detections below this are not counted. */
const COUNT_MIN_SCORE = 0.3;
/** How much a confident classifier label the query is not takes from a more general label's evidence. */
const CONTRADICTION = 0.7;
/** A target at least this close is the query, not something else. */
const SAME_THING = 0.5;

type Objects = Array<{ label: string; score: number; box?: number[]; colours?: Colours }>;
type Classes = Array<{ label: string; score: number }>;
type Colours = Array<{ name: string; fraction: number }>;

const prominence = (box?: number[]) => {
  if (!box) return 1;
  const area = Math.max(0, (box[2]! - box[0]!) * (box[3]! - box[1]!));
  return 0.6 + 0.4 * Math.min(1, Math.sqrt(area) / 0.5);
};

/** How much of a set of colours (a frame's, or an object's own) is one of `want` (a 'dark blue' counts a little for 'blue'). */
export function colourMatch(colours: Colours, want: string[]): number {
  let best = 0;
  for (const c of colours) {
    const name = c.name.toLowerCase();
    for (const w of want) {
      const match = name === w ? 1 : wordsOf(name).includes(w) || wordsOf(w).includes(name) ? 0.85 : 0;
      best = Math.max(best, match * Math.min(1, c.fraction * 2));
    }
  }
  return best;
}

/** How much of the frame shows any of the colours. */
export const colourEvidence = (frame: FrameLabels, colours: string[]): number => colourMatch(frame.colours as Colours, colours);

/**
 * A colour bound to the concept ('a yellow bus') is looked for on the object itself when the index
 * has the object's own colours, else in the whole frame.
 */
const tint = (c: ResolvedConcept, frame: FrameLabels, colours: Colours | undefined) =>
  c.colours.length ? 1 - COLOUR_SHARE + COLOUR_SHARE * colourMatch(colours ?? (frame.colours as Colours), c.colours) : 1;

/** One frame's evidence for one concept, as conceptScore gathers it label by label. */
interface Evidence {
  /** Noisy-OR over the thing itself: the chance that every label for it is wrong. */
  miss: number;
  /** The best evidence from a relative. */
  relative: number;
  /** The classifier's confidence that the frame is something specific the concept is not. */
  other: number;
}

/** Adds a label seen with `score` to the evidence; whether the concept maps it at all. */
function addLabel(e: Evidence, c: ResolvedConcept, label: string, score: number): boolean {
  const key = label.toLowerCase();
  const w = c.targets.get(key);
  if (!w) return false;
  if (c.direct.has(key)) e.miss *= 1 - Math.min(0.999, score * w);
  else e.relative = Math.max(e.relative, score * w * (c.general.has(key) ? 1 - CONTRADICTION * e.other : 1));
  return true;
}

/**
 * A frame's score for one concept. Scoring runs per keyframe and concept (600 and more a search), so
 * it creates no functions as it goes: under tsx, which keeps every function's name, each one created
 * costs a call that names it (~3 ms of a two-concept search at 100 hours).
 */
export function conceptScore(frame: FrameLabels, c: ResolvedConcept): number {
  if (c.isColour) return colourEvidence(frame, c.colours);
  const classes = frame.classes as Classes;
  const e: Evidence = { miss: 1, relative: 0, other: 0 };
  for (const k of classes) if ((c.targets.get(k.label.toLowerCase()) ?? 0) < SAME_THING) e.other = Math.max(e.other, k.score);
  const frameTint = tint(c, frame, undefined);
  let seen = 0;
  for (const o of frame.objects as Objects)
    if (addLabel(e, c, o.label, o.score * prominence(o.box) * tint(c, frame, o.colours)) && o.score >= COUNT_MIN_SCORE) seen++;
  for (const k of classes) addLabel(e, c, k.label, k.score * frameTint);
  if (c.literals.length && frame.ocr) {
    const words = new Set(frame.ocr.split(' '));
    for (const l of c.literals)
      if (words.has(l)) {
        e.miss *= 1 - OCR_MATCH * frameTint;
        break;
      }
  }
  let s = Math.max(1 - e.miss, e.relative);
  if (s > 0 && c.count && seen > 0 && seen < c.count) s *= COUNT_SHORT;
  return s;
}

/** The frame's score for the whole query: geometric mean over the required concepts; optional ones join when found. */
export function queryScore(frame: FrameLabels, concepts: ResolvedConcept[]): number {
  // Every concept is required when all are optional.
  let allOptional = true;
  for (const c of concepts) if (!c.optional) allOptional = false;
  let logSum = 0;
  let n = 0;
  let any = false;
  for (const c of concepts) {
    const s = conceptScore(frame, c);
    if (c.optional && !allOptional && s <= 0) continue;
    if (s > 0) any = true;
    logSum += Math.log(Math.max(MISSING_FLOOR, Math.min(1, s)));
    n++;
  }
  return any && n ? Math.exp(logSum / n) : 0;
}
