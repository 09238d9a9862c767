import type { Moment } from '../../../contract';

/**
 * Results the grid shows by default (high and medium confidence, and any a server answered without
 * a confidence) and the low-confidence ones kept behind a toggle; order is kept.
 */
export function splitByConfidence<M extends Pick<Moment, 'confidence'>>(results: readonly M[]): { confident: M[]; low: M[] } {
  const confident: M[] = [];
  const low: M[] = [];
  for (const m of results) (m.confidence === 'low' ? low : confident).push(m);
  return { confident, low };
}
