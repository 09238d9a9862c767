import { useCallback, useRef, useSyncExternalStore } from 'react';
import { TIMELINE } from '../../contract';
import type { EngineState, TimelineEngine } from '../../engine/TimelineEngine';
import type { SequenceEngine, SequenceEngineState } from '../../engine/sequence/SequenceEngine';

/** What React needs of an engine (both engines' `OnDemandEngine` core): a state object replaced on each change. */
export interface EngineStore<S> {
  getState(): S;
  subscribe(listener: () => void): () => void;
}

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

/** The clip editor's state before it exists (or after it is gone): no clips. */
export const IDLE_SEQUENCE_STATE: SequenceEngineState = {
  clips: [],
  currentTime: 0,
  duration: 0,
  current: -1,
  playing: false,
  shuttle: 0,
  canUndo: false,
  canRedo: false,
  dragging: null,
  dropIndex: null,
  viewWidth: 0,
};

const noop = () => {};

/**
 * The one way React reads an engine's state: a selected value that re-renders the component only
 * when it changes by `isEqual` (Object.is unless told). Equal values keep the previous one's
 * identity, so a selector that builds an object or array re-renders nothing until its content
 * changes. The engine publishes a new state on every change (per frame while playing); a component
 * selecting what a frame does not change is not rendered by it.
 */
export function useEngineSelector<S, T>(
  engine: EngineStore<S> | null,
  idle: S,
  select: (s: S) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const subscribe = useCallback((onChange: () => void) => (engine ? engine.subscribe(onChange) : noop), [engine]);
  // Memoised per state object, so a selector that builds a value still gives a stable snapshot.
  const cache = useRef<{ state: S; select: (s: S) => T; value: T } | null>(null);
  const getSnapshot = () => {
    const state = engine ? engine.getState() : idle;
    const c = cache.current;
    if (c && c.state === state && c.select === select) return c.value;
    const selected = select(state);
    const value = c && isEqual(c.value, selected) ? c.value : selected;
    cache.current = { state, select, value };
    return value;
  };
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** The moment timeline's state, selected (see useEngineSelector). */
export function useEngineValue<T>(engine: TimelineEngine | null, select: (s: EngineState) => T, isEqual?: (a: T, b: T) => boolean): T {
  return useEngineSelector(engine, IDLE_ENGINE_STATE, select, isEqual);
}

/** The clip editor's (merge dialog's) state, selected (see useEngineSelector). */
export function useSequenceValue<T>(
  engine: SequenceEngine | null,
  select: (s: SequenceEngineState) => T,
  isEqual?: (a: T, b: T) => boolean,
): T {
  return useEngineSelector(engine, IDLE_SEQUENCE_STATE, select, isEqual);
}
