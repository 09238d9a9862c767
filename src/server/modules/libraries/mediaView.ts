import type { Library, Media, MediaStatus } from '../../../contract';
import type { StoredProbe } from '../../adapters/media/ffprobe';
import type { LibraryAggregates, LibraryRow } from './library.repository';
import type { MediaRow } from './media.repository';

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * MP4-family containers a browser can demux with mp4box (ffprobe names them "mov,mp4,m4a,3gp,3g2,mj2")
 * and draw as stored: a rotated one (a phone held upright) would come out of WebCodecs sideways, so
 * its timeline pictures come from the server (upright) instead.
 */
export function isMp4Family(probe: Pick<StoredProbe, 'kind' | 'rotation' | 'formatName'> | null | undefined): boolean {
  return !!probe && probe.kind !== 'image' && !probe.rotation && /(^|,)(mov|mp4)(,|$)/.test(probe.formatName ?? '');
}

/** Maps a media row to the spec's Media entity. */
export function toMedia(row: MediaRow): Media {
  return {
    _id: row.id,
    uniqueId: row.unique_id,
    libraryId: row.library_id,
    folderId: row.folder_id,
    status: row.status as MediaStatus,
    progress: row.status === 'completed' ? 1 : Number(row.progress),
    isUploading: row.status === 'uploading',
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    origin: row.origin,
    capabilities: { preview: row.has_preview, source: isMp4Family(row.probe), thumbnailTrack: !!row.ingest?.track },
    error: row.error_message ? { message: row.error_message } : null,
    kind: row.kind,
    thumbnails: row.ingest?.strip
      ? {
          interval: row.ingest.strip.interval,
          count: row.ingest.strip.count,
          width: row.ingest.strip.width,
          height: row.ingest.strip.height,
        }
      : null,
    missingFeatures: row.ingest?.missing ?? [],
    metadata: {
      name: row.name,
      filename: row.filename,
      fileMappings: { originalMedia: row.blob_key },
      video: {
        duration: row.duration ?? 0,
        width: row.width ?? 0,
        height: row.height ?? 0,
        frameCount: row.frame_count ?? 0,
        frameRate: Number(row.probe?.frameRate ?? 0) || 0,
        originalMediaSize: Math.round((Number(row.size_bytes) / (1024 * 1024)) * 100) / 100,
      },
    },
  };
}

export function toLibrary(row: LibraryRow, agg: LibraryAggregates): Library {
  return {
    _id: row.id,
    libraryId: row.id,
    name: row.name,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    isDefault: row.is_default,
    isDemo: row.is_demo,
    isReadOnly: row.is_read_only,
    latestMediaIds: agg.latestMediaIds,
    coverMediaId: agg.coverMediaId,
    rootFolderId: row.root_folder_id!,
    stats: {
      count: agg.count,
      mediaSize: agg.mediaSize,
      mediaDuration: agg.mediaDuration,
      breakdown: { completed: { count: agg.completed }, photos: { count: agg.photos } },
      withSpeech: agg.withSpeech,
    },
    system: { default: row.is_default, demo: row.is_demo, readonly: row.is_read_only },
    settings: { v1: ((row.settings as { v1?: Record<string, unknown> }).v1 ?? {}) as Record<string, unknown> },
    data: { _id: row.id, name: row.name, stats: { count: agg.count } },
  };
}
