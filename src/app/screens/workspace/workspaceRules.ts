import type { Library } from '../../../contract';

/**
 * The demo card's line. Every account indexes its own copy of the samples right after sign-up, so at
 * first none is ready: the card says they are being made ready, not '0 videos ready'.
 */
export function demoReadiness(stats: Pick<Library['stats'], 'count' | 'breakdown'>): { text: string; indexing: boolean } {
  const { count } = stats;
  const ready = stats.breakdown.completed.count;
  const videos = (n: number) => `${n} ${n === 1 ? 'video' : 'videos'}`;
  if (count === 0) return { text: 'No sample videos yet', indexing: false };
  if (ready >= count) return { text: `${videos(count)} ready to search`, indexing: false };
  if (ready === 0) return { text: `Getting ${videos(count)} ready to search…`, indexing: true };
  return { text: `${ready} of ${videos(count)} ready to search, the rest on the way…`, indexing: true };
}
