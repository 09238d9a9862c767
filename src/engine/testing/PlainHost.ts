import { Teardown } from '../Teardown';
import type { EngineState, TimelineHost } from '../timeline/types';

/**
 * The host a timeline part (pointer input, video playback) gets from the engine, on a plain state
 * object: for the parts' node tests. 1000 px wide at 100 %; `initial` overrides any field.
 */
export function plainHost(fps: number, duration: number, initial: Partial<EngineState> = {}) {
  let state: EngineState = {
    time: 0,
    frame: 0,
    duration,
    frameRate: fps,
    playing: false,
    shuttle: 0,
    zoom: 100,
    viewStart: 0,
    viewWidth: 1000,
    range: null,
    dragging: null,
    ...initial,
  };
  const host: TimelineHost = {
    fps,
    duration,
    teardown: new Teardown(),
    state: () => state,
    viewport: () => ({ duration, width: state.viewWidth, zoom: state.zoom, viewStart: state.viewStart }),
    patch: (p) => {
      state = { ...state, ...p };
    },
  };
  return host;
}
