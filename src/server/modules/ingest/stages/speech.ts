import path from 'node:path';
import { putFile, readAll } from '../../../adapters/blobs/blobStore';
import { chunkSamples, pcmSamples, wavLayout } from '../../../adapters/models/pocketsphinx';
import { blobKeys } from '../../storage/blobKeys';
import type { MediaRow } from '../../libraries/media.repository';
import { probeOf, type ChunkedStage, type StageDeps, type StageHandler } from './stage';

/** Whether there is anything to hear: a video with sound, and the speech model. */
const hearable = (media: MediaRow, deps: StageDeps) => {
  const p = probeOf(media);
  return p.kind !== 'image' && !!p.audioCodec && !!deps.models.speech;
};

/** What is said (pocketsphinx), when the media has sound and the speech model is there. */
export const speechStage: StageHandler = async ({ media, work, input, onProgress, deps }) => {
  if (!hearable(media, deps)) return;
  const speech = deps.models.speech!;
  const wav = await deps.tools.extractAudio(input, path.join(work, 'audio.wav'), probeOf(media).duration);
  if (!wav) return;
  const segments = speech.group(await speech.words(wav, { onProgress }));
  await deps.index.replaceTranscript(media.id, media.library_id, segments);
};

/** The shared audio of a chunked media's speech: 16 kHz mono WAV, extracted once by the stage's job. */
const WORK_WAV = 'audio.wav';
/** ffmpeg's WAV header (RIFF, fmt, LIST with its encoder's name, then data) fits in this many bytes. */
const WAV_HEAD_BYTES = 4096;

/**
 * A long media's speech, one chunk of time each: each decodes the speech pieces whose cuts fall in
 * it (pocketsphinx.ts splitAtPauses), from the WAV the stage's job stored for the chunks (workers
 * may be other machines); the merge groups all words into segments as a whole run does.
 */
export const speechChunks: ChunkedStage<{ words: Array<{ word: string; start: number; end: number }> }> = {
  applies: hearable,
  prepare: async ({ media, work, input, deps }) => {
    const key = blobKeys.ingestWork(media.id, WORK_WAV);
    if (await deps.blobs.exists(key)) return true;
    const wav = await deps.tools.extractAudio(input, path.join(work, WORK_WAV), probeOf(media).duration);
    if (!wav) return false;
    await putFile(deps.blobs, key, wav, 'audio/wav');
    return true;
  },
  // A chunk reads its own stretch of the WAV and the reach of its cuts (a few MB), not the whole
  // audio (230 MB for 2 hours), with two ranged reads: the header, then its samples.
  chunk: async ({ media, deps, range, onProgress }) => {
    const key = blobKeys.ingestWork(media.id, WORK_WAV);
    const size = await deps.blobs.size(key);
    const layout = wavLayout(await readAll(await deps.blobs.read(key, { start: 0, end: Math.min(size, WAV_HEAD_BYTES) })), key);
    const total = Math.floor(Math.min(layout.dataBytes ?? Infinity, size - layout.dataOffset) / 2);
    const chunk = { from: range.from, to: range.to };
    const [start, end] = chunkSamples(total, layout.rate, chunk);
    const bytes =
      end > start
        ? await readAll(await deps.blobs.read(key, { start: layout.dataOffset + 2 * start, end: layout.dataOffset + 2 * end }))
        : Buffer.alloc(0);
    const audio = { samples: pcmSamples(bytes), rate: layout.rate, offset: start, total };
    return { words: await deps.models.speech!.words(audio, { chunk, onProgress }) };
  },
  merge: async ({ media, deps }, results) => {
    const segments = deps.models.speech!.group(results.flatMap((r) => r.words));
    await deps.index.replaceTranscript(media.id, media.library_id, segments);
    await deps.blobs.delete(blobKeys.ingestWork(media.id, WORK_WAV));
  },
};
