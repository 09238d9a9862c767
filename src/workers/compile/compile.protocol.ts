import type { ClipCrop } from '../../engine/kernels/cropWindow';
import type { RpcMessage } from '../rpc';

/** A clip of the compilation: its media's HLS preview playlist and the media range to take. */
export interface CompileClip {
  playlistUrl: string;
  start: number;
  end: number;
  /** The media's frame rate (0 or unknown: 30): re-encoded parts keep exactly their frames. */
  frameRate: number;
  /**
   * Issue 39: the compilation's aspect crops: the window over this clip's picture and its path (media
   * times), and the size every clip is scaled to. Every part is then re-encoded (a copied segment
   * keeps the source's shape).
   */
  crop?: ClipCrop;
  output?: { width: number; height: number };
}

/** One piece of the compilation, an MPEG-TS file, and the seconds it lasts in the sequence. */
export interface CompilePart {
  ts: ArrayBuffer;
  duration: number;
}

/** A part cut by one worker, with its place in the compilation (clip, then part within the clip). */
export interface CutPart extends CompilePart {
  clip: number;
  part: number;
}

export interface CutTimings {
  loadMs: number;
  fetchMs: number;
  encodeMs: number;
  encodedSeconds: number;
}

/**
 * The ffmpeg.wasm core a worker runs: its script's URL and its .wasm, compiled once by the page and
 * shared by every worker (each instantiates it with its own memory).
 */
export interface CoreRef {
  coreURL: string;
  wasm: WebAssembly.Module;
}

/** Messages of the local compilation preview worker (ffmpeg.wasm, single thread, self-hosted). */
export type CompileProtocol = {
  /**
   * Cuts this worker's share (`share.index` of `share.of`, compilePlan's shareParts) of the clips'
   * parts: whole segments copied, partial ones re-encoded; buffers transferred back.
   */
  cut: {
    params: { clips: CompileClip[]; share: { index: number; of: number } } & CoreRef;
    result: { parts: CutPart[]; timings: CutTimings };
  };
  /** Joins parts, in order, into one MP4 without re-encoding. */
  join: {
    params: { parts: CompilePart[] } & CoreRef;
    result: { mp4: ArrayBuffer; joinMs: number };
  };
};

export type CompileMessage = RpcMessage<CompileProtocol>;
