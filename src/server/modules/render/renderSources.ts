import fs from 'node:fs';
import path from 'node:path';
import { MSG_RENDER, RENDER_ASPECT_DEFAULT } from '../../../contract';
import { readAll } from '../../adapters/blobs/blobStore';
import type { RenderSpec } from '../../db/schema';
import { notFound } from '../../errors';
import { parsePlaylist, segmentsCovering, writePlaylist } from '../delivery/hlsPlaylist';
import { blobKeys } from '../storage/blobKeys';
import type { RenderDeps, RenderSource } from './render.service';

type SourceDeps = Pick<RenderDeps, 'media' | 'blobs' | 'workDir' | 'framing'>;

/** What a render reads: each clip's source (sources), cropped along its path when the aspect crops (framed). */
export async function renderSources(d: SourceDeps, spec: RenderSpec, renderId: string): Promise<RenderSource[]> {
  return framed(d, spec, await sources(d, spec.clips, renderId));
}

/** Removes the playlists renderSources wrote for a render's clips. */
export function removeRenderInputs(workDir: string, renderId: string, clips: number): void {
  for (let i = 0; i < clips; i++) fs.rmSync(path.join(workDir, `render-${renderId}-${i}.m3u8`), { force: true });
}

/**
 * What each clip is read from. The 720p rendition is cheaper to decode than a 1080p+ original
 * (ARCHITECTURE.md) and is upright, deinterlaced and square-pixelled already; only the segments a
 * clip needs go into a playlist of its own. A rendition made before its start time was kept (or
 * none) sends every clip of the render to the originals: one render cuts all its inputs one way.
 */
async function sources(d: SourceDeps, clips: RenderSpec['clips'], renderId: string): Promise<RenderSource[]> {
  const media = await Promise.all(
    clips.map(async (c) => {
      const m = await d.media.byId(c.mediaId);
      if (!m) throw notFound(MSG_RENDER.mediaGone);
      return m;
    }),
  );
  const fromRendition = media.every((m) => m.has_preview && typeof m.ingest?.hls?.start === 'number');
  return Promise.all(
    clips.map(async (c, i) => {
      const m = media[i]!;
      return {
        input: fromRendition ? await renditionInput(d, m.id, c, `${renderId}-${i}`) : await d.blobs.toolInput(m.blob_key),
        start: c.start,
        end: c.end,
        origin: fromRendition ? m.ingest!.hls!.start! : null,
        width: m.width,
        height: m.height,
        // A variable rate renders at the rate its frame times fit, so no frame falls between two output frames.
        frameRate: m.probe?.maxFrameRate ?? m.probe?.frameRate ?? null,
        hasAudio: !!m.probe?.audioCodec,
      };
    }),
  );
}

/**
 * Issue 39: each clip's crop path when the aspect crops: where the user fixed it, else following
 * the subject ingest found (framing.ts), with times from the clip's start.
 */
async function framed(d: SourceDeps, spec: RenderSpec, sources: RenderSource[]): Promise<RenderSource[]> {
  const aspect = spec.aspect ?? RENDER_ASPECT_DEFAULT;
  if (aspect === 'source') return sources;
  return Promise.all(
    sources.map(async (s, i) => {
      const c = spec.clips[i]!;
      return {
        ...s,
        framing: await d.framing.clip({ id: c.mediaId, width: s.width, height: s.height }, s.start, s.end, aspect, c.framing),
      };
    }),
  );
}

/**
 * A playlist of the rendition's segments that hold [start, end), in the work folder: local paths,
 * or signed URLs in the S3 store.
 */
async function renditionInput(d: SourceDeps, mediaId: string, c: { start: number; end: number }, name: string) {
  const text = (await readAll(await d.blobs.read(blobKeys.hlsPlaylist(mediaId)))).toString('utf8');
  const segments = segmentsCovering(parsePlaylist(text), c.start, c.end);
  const located = await Promise.all(
    segments.map(async (s) => ({ uri: await d.blobs.toolInput(blobKeys.hls(mediaId, s.uri)), duration: s.duration })),
  );
  const file = path.join(d.workDir, `render-${name}.m3u8`);
  fs.writeFileSync(file, writePlaylist(located));
  return file;
}
