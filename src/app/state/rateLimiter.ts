import pThrottle from 'p-throttle';

/**
 * Spaces calls so that at most `perSecond` start in any second (retry actions, libraries spec
 * section 8), evenly, one per 1/perSecond s. Calls keep their order; each waits for its slot rather
 * than being dropped (p-throttle's queue).
 */
export function createRateLimiter(perSecond: number) {
  const throttle = pThrottle({ limit: 1, interval: 1000 / perSecond });
  return <T>(fn: () => Promise<T>): Promise<T> => throttle(fn)();
}
