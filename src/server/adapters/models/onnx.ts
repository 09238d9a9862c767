import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { ModelMissingError } from './types';

export { ort };

/** The files of `files` that are not in `modelsDir`. */
export function missingFiles(modelsDir: string, files: readonly string[]): string[] {
  return files.filter((f) => !fs.existsSync(path.join(modelsDir, f)));
}

/** Throws a ModelMissingError naming every file of `files` that is not in `modelsDir`. */
export function requireFiles(modelsDir: string, model: string, files: readonly string[]): void {
  const missing = missingFiles(modelsDir, files);
  if (missing.length) throw new ModelMissingError(model, missing, 'MODELS_DIR', modelsDir);
}

export interface SessionOptions {
  /**
   * Threads for one inference; default 1. Ingest already keeps every core busy with work of its own
   * (the OCR thread, the speech processes, ffmpeg), and ONNX Runtime's pool threads spin while they
   * wait: measured on this 2-core machine under ingest's load, two threads cost YOLOX-nano 54 ms of
   * CPU a keyframe instead of 33, MobileNetV2 29 instead of 14, PP-OCR 314 instead of 127, for no
   * gain in time.
   */
  threads?: number;
}

/** Opens an ONNX model from `modelsDir`, naming the file when it is not there. */
export async function openSession(
  modelsDir: string,
  file: string,
  model: string,
  opts: SessionOptions = {},
): Promise<ort.InferenceSession> {
  requireFiles(modelsDir, model, [file]);
  return ort.InferenceSession.create(path.join(modelsDir, file), {
    // Warnings such as UltraFace's "initializer appears in graph inputs" are noise in the job log.
    logSeverityLevel: 3,
    graphOptimizationLevel: 'all',
    // CPUs without VNNI (AVX2 only, e.g. AMD EPYC Zen 2) multiply int8 with vpmaddubsw, which
    // saturates at int16: MobileNetV2-int8 then read eagle.jpg as 'bald eagle' 0.24 instead of 0.82.
    // Widening to int16 keeps the int8 models' results the same on every x86 CPU.
    // A pool thread that runs out of work sleeps instead of spinning (see SessionOptions.threads).
    extra: { session: { x64quantprecision: '1', intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    intraOpNumThreads: opts.threads ?? 1,
    interOpNumThreads: 1,
  });
}

/** The fixed batch size of a session's first input, or null when the batch dimension is free. */
export function fixedBatch(session: ort.InferenceSession): number | null {
  const meta = session.inputMetadata[0];
  if (!meta || !('shape' in meta)) return null;
  const first = meta.shape[0];
  return typeof first === 'number' && first > 0 ? first : null;
}
