import type { Stage } from '../ingest.service';
import { completeStage } from './complete';
import { descriptionsStage } from './descriptions';
import { downloadStage } from './download';
import { keyframesStage } from './keyframes';
import { previewStage } from './preview';
import { probeStage } from './probe';
import type { StageHandler } from './stage';
import { speechStage } from './speech';
import { thumbnailsStage } from './thumbnails';
import { visualStage } from './visual';

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
