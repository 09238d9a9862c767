import { useEffect, useState } from 'react';
import { secondsLeft } from './countdown';

/** Seconds left until `untilMs` (0 when null or past), re-rendering once a second while it runs. */
export function useCountdown(untilMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(untilMs, now);
  useEffect(() => {
    if (untilMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= untilMs) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [untilMs]);
  return left;
}
