/**
 * Spaces calls so that at most `perSecond` start in any second (retry actions, libraries spec
 * section 8). Calls keep their order; each waits for its slot rather than being dropped.
 */
export function createRateLimiter(perSecond: number, now: () => number = () => Date.now()) {
  const interval = 1000 / perSecond;
  let nextAt = 0;
  return async function schedule<T>(fn: () => Promise<T>): Promise<T> {
    const t = now();
    const at = Math.max(t, nextAt);
    nextAt = at + interval;
    if (at > t) await new Promise((r) => setTimeout(r, at - t));
    return fn();
  };
}
