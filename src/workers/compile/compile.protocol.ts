import type { RpcMessage } from '../rpc';

/** A clip of the compilation: its media's HLS preview playlist and the media range to take. */
export interface CompileClip {
  playlistUrl: string;
  start: number;
  end: number;
}

/** Messages of the local compilation preview worker (ffmpeg.wasm, single thread, self-hosted). */
export type CompileProtocol = {
  /** Builds one MP4 of the clips in order; the file's bytes are transferred back. */
  build: {
    params: { clips: CompileClip[]; coreURL: string; wasmURL: string };
    result: { mp4: ArrayBuffer; timings: { loadMs: number; fetchMs: number; encodeMs: number; joinMs: number; encodedSeconds: number } };
  };
};

export type CompileMessage = RpcMessage<CompileProtocol>;
