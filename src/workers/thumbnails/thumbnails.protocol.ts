import type { RpcMessage } from '../rpc';

/** What `open` learned about the media's video track. */
export interface SourceInfo {
  /** RFC 6381 codec string from the sample entry, e.g. 'avc1.64001f'. */
  codec: string;
  width: number;
  height: number;
  /** Seconds. */
  duration: number;
  frameRate: number;
  sampleCount: number;
  syncSampleCount: number;
  /** Presentation times (seconds, ascending) of the sync samples: keyframe thumbnails within one GOP are one picture. */
  keyframeTimes: number[];
  /** Whether this browser's VideoDecoder accepts the track's configuration. */
  decodable: boolean;
  /** Bytes read to open it (head, box headers, moov). */
  bytesRead: number;
  /** Where the open's time went in the worker, in milliseconds. */
  openMs: OpenTimings;
}

/** Milliseconds of each part of opening a media in the worker. */
export interface OpenTimings {
  /** Reading the head and hopping to the moov, and reading it. */
  boxes: number;
  /** Building the sample table and the decoder configuration. */
  index: number;
  /** VideoDecoder.isConfigSupported. */
  supported: number;
  /** Reading the first keyframe and decoding it once on each decoder. */
  warmUp: number;
  total: number;
}

/**
 * Which of a media's files a source is: its original, or the server's thumbnail track (the
 * original's keyframes, small, upright: API.mediaThumbnailTrack). Both may be open at once.
 */
export type SourceRole = 'original' | 'track';

/** One thumbnail of a batch; width/height are in device pixels. */
export interface FrameRequest {
  id: number;
  time: number;
  precision: 'keyframe' | 'exact';
  width: number;
  height: number;
}

export type FrameResult =
  | { id: number; status: 'ok'; bitmap: ImageBitmap }
  | { id: number; status: 'cancelled' }
  | { id: number; status: 'error'; message: string };

export interface BatchStats {
  /** Chunks given to the decoder (a keyframe thumbnail costs one). */
  chunksDecoded: number;
  /** GOPs decoded. */
  gops: number;
  /** Media bytes fetched for this batch (cached ranges cost nothing). */
  bytesRead: number;
  rangeRequests: number;
  /** Where the batch's time went in the worker: waiting for bytes, drawing tiles, and in all. */
  waitBytesMs: number;
  drawMs: number;
  totalMs: number;
}

/** Messages of the thumbnail worker (a type alias, so it satisfies RpcProtocol's index). */
export type ThumbnailsProtocol = {
  /** Opens the media at `url` (absolute, read by byte ranges only) and reads its video track's sample table. */
  open: { params: { url: string; role: SourceRole }; result: SourceInfo };
  /** Decodes a batch of thumbnails from the `role` source, each GOP once; bitmaps are transferred, results come in request order. */
  thumbnails: { params: { requests: FrameRequest[]; role: SourceRole }; result: { results: FrameResult[]; stats: BatchStats } };
  /** Cancels requests of running batches by id; they answer 'cancelled' and their GOPs are skipped when no one else needs them. */
  cancel: { params: { ids: number[] }; result: { cancelled: number } };
  /** Closes the decoders and forgets the sources. */
  close: { params: object; result: { closed: true } };
};

export type ThumbnailsMessage = RpcMessage<ThumbnailsProtocol>;
