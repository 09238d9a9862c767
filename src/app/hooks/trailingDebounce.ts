import { useEffect, useMemo, useRef } from 'react';

/**
 * A trailing debounce: calls made within `ms` of each other run `fn` once, `ms` after the last.
 * `flush` runs a waiting call now; `cancel` drops it.
 */
export function trailingDebounce(fn: () => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    call() {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, ms);
    },
    flush() {
      if (timer === null) return;
      cancel();
      fn();
    },
    cancel,
    get pending() {
      return timer !== null;
    },
  };
}

/** `trailingDebounce` for a component: always calls the latest `fn`, and drops a waiting call on unmount. */
export function useTrailingDebounce(fn: () => void, ms: number) {
  const latest = useRef(fn);
  latest.current = fn;
  const debounced = useMemo(() => trailingDebounce(() => latest.current(), ms), [ms]);
  useEffect(() => () => debounced.cancel(), [debounced]);
  return debounced;
}
