// The engine test page: puts the TestTimeline helper, the fakes and the zoom benchmark on window
// for tests/browser/engine.test.ts and tests/bench/timeline.bench.ts to drive.
import * as kernels from '../../../../src/engine/kernels';
import { FakeVideo } from '../../drivers/FakeVideo';
import { SyntheticThumbnails } from '../../drivers/SyntheticThumbnails';
import { TestSequence, testClip } from '../../drivers/TestSequence';
import { TestTimeline } from '../../drivers/TestTimeline';
import { ThumbnailError } from '../../../../src/engine/thumbnailSource';
import { runZoomBench } from './zoomBench';

const engineTest = { TestTimeline, TestSequence, testClip, FakeVideo, SyntheticThumbnails, ThumbnailError, kernels, runZoomBench };
export type EngineTestApi = typeof engineTest;

declare global {
  interface Window {
    engineTest: EngineTestApi;
  }
}

window.engineTest = engineTest;
document.body.dataset.ready = 'true';
