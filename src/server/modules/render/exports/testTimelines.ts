import type { ExportSource, ExportTimeline } from './timeline';

/** Sources the writers' tests share: a 25 fps counter, a 29.97 talk with sound (a name to escape), a 60 fps screen recording. */
export const COUNTER: ExportSource = {
  mediaId: 'm-counter',
  fileName: 'counter.mp4',
  rate: { num: 25, den: 1 },
  width: 640,
  height: 360,
  frames: 300,
  hasAudio: false,
};
export const TALK: ExportSource = {
  mediaId: 'm-talk',
  fileName: 'Talk & "notes" <draft>.mov',
  rate: { num: 30000, den: 1001 },
  width: 1280,
  height: 720,
  frames: 36_000,
  hasAudio: true,
};
export const SCREEN: ExportSource = {
  mediaId: 'm-screen',
  fileName: 'screen recording.webm',
  rate: { num: 60, den: 1 },
  width: 1920,
  height: 1080,
  frames: 7200,
  hasAudio: true,
};

/** A 29.97 merge: two clips of the talk (one past the first ten minutes) around a 25 fps clip. */
export const MIXED: ExportTimeline = {
  title: 'Best bits',
  clips: [
    { source: TALK, in: 1798, out: 1890 },
    { source: COUNTER, in: 50, out: 100 },
    { source: TALK, in: 18_000, out: 18_030 },
  ],
};

/** A 25 fps merge of one original. */
export const COUNTER_MERGE: ExportTimeline = {
  title: 'Counter',
  clips: [
    { source: COUNTER, in: 50, out: 100 },
    { source: COUNTER, in: 185, out: 205 },
  ],
};
