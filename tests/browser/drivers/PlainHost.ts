import { Teardown } from '../../../src/engine/Teardown';
import { initialEngineState, type EngineState, type TimelineHost } from '../../../src/engine/timeline/types';

/**
 * The host a timeline part (pointer input, video playback) gets from the engine, on a plain state
 * object: for the parts' node tests. 1000 px wide at 100 %; `initial` overrides any field.
 */
export function plainHost(fps: number, duration: number, initial: Partial<EngineState> = {}) {
  let state: EngineState = { ...initialEngineState(fps, duration, 1000, 100), ...initial };
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
