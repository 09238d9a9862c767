import type { RpcMessage } from '../rpc';

/** A clip of the compilation: its media's HLS preview playlist and the media range to take. */
export interface CompileClip {
  playlistUrl: string;
  start: number;
  end: number;
  /** The media's frame rate (0 or unknown: 30): re-encoded parts keep exactly their frames. */
  frameRate: number;
}

/** One piece of the compilation, an MPEG-TS file, and the seconds it lasts in the sequence. */
export interface CompilePart {
  ts: ArrayBuffer;
  duration: number;
}

export interface CutTimings {
  loadMs: number;
  fetchMs: number;
  encodeMs: number;
  encodedSeconds: number;
}

/** Messages of the local compilation preview worker (ffmpeg.wasm, single thread, self-hosted). */
export type CompileProtocol = {
  /** Cuts clips into parts (whole segments copied, partial ones re-encoded), in order; buffers transferred back. */
  cut: {
    params: { clips: CompileClip[]; coreURL: string; wasmURL: string };
    result: { parts: CompilePart[]; timings: CutTimings };
  };
  /** Joins parts, in order, into one MP4 without re-encoding. */
  join: {
    params: { parts: CompilePart[]; coreURL: string; wasmURL: string };
    result: { mp4: ArrayBuffer; joinMs: number };
  };
};

export type CompileMessage = RpcMessage<CompileProtocol>;
