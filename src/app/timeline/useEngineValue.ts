import { useCallback, useRef, useSyncExternalStore } from 'react';
import { TIMELINE } from '../../contract';
import type { EngineState, TimelineEngine } from '../../engine/TimelineEngine';

/** What components see before the engine exists (or after it is gone). */
export const IDLE_ENGINE_STATE: EngineState = {
  time: 0,
  frame: 0,
  duration: 0,
  frameRate: 30,
  playing: false,
  shuttle: 0,
  zoom: TIMELINE.minZoom,
  viewStart: 0,
  viewWidth: 0,
  range: null,
  dragging: null,
};

const noop = () => {};

/**
 * The one way React reads engine state: a selected value that re-renders the component only when
 * it changes (Object.is). Select primitives or objects the engine keeps (e.g. `s.range`).
 */
export function useEngineValue<T>(engine: TimelineEngine | null, select: (s: EngineState) => T): T {
  const subscribe = useCallback((onChange: () => void) => (engine ? engine.subscribe(onChange) : noop), [engine]);
  // Memoised per state object, so a selector that builds a value still gives a stable snapshot.
  const cache = useRef<{ state: EngineState; select: (s: EngineState) => T; value: T } | null>(null);
  const getSnapshot = () => {
    const state = engine ? engine.getState() : IDLE_ENGINE_STATE;
    const c = cache.current;
    if (c && c.state === state && c.select === select) return c.value;
    const value = select(state);
    cache.current = { state, select, value };
    return value;
  };
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
