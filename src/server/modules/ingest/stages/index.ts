import type { Stage } from '../ingest.service';
import { completeStage } from './complete';
import { descriptionsStage } from './descriptions';
import { downloadStage } from './download';
import { keyframesChunks, keyframesStage } from './keyframes';
import { previewStage } from './preview';
import { probeStage } from './probe';
import type { ChunkedStage, StageHandler } from './stage';
import { speechChunks, speechStage } from './speech';
import { thumbnailsStage } from './thumbnails';
import { visualChunks, visualStage } from './visual';
import type { ChunkStage } from '../chunks';

/** Each ingest stage's handler, one file each; IngestService runs them in STAGE_AFTER's order. */
export const STAGE_HANDLERS: Readonly<Record<Stage, StageHandler>> = {
  download: downloadStage,
  probe: probeStage,
  preview: previewStage,
  thumbnails: thumbnailsStage,
  keyframes: keyframesStage,
  visual: visualStage,
  speech: speechStage,
  descriptions: descriptionsStage,
  complete: completeStage,
};

/** How the stages that run in chunks for a long media do it (chunks.ts). */
export const CHUNKED_STAGES: Readonly<Record<ChunkStage, ChunkedStage>> = {
  keyframes: keyframesChunks as ChunkedStage,
  visual: visualChunks as ChunkedStage,
  speech: speechChunks as ChunkedStage,
};
