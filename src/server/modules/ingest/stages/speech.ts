import path from 'node:path';
import { probeOf, type StageHandler } from './stage';

/** What is said (pocketsphinx), when the media has sound and the speech model is there. */
export const speechStage: StageHandler = async ({ media, work, input, onProgress, deps }) => {
  const p = probeOf(media);
  if (p.kind === 'image' || !p.audioCodec) return;
  if (!deps.models.speech) return;
  const wav = await deps.tools.extractAudio(input, path.join(work, 'audio.wav'), p.duration);
  if (!wav) return;
  const segments = await deps.models.speech.transcribe(wav, { onProgress });
  await deps.index.replaceTranscript(media.id, media.library_id, segments);
};
