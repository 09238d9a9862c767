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
  /** Threads for one inference; default: ONNX Runtime's choice (all cores). */
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
    extra: { session: { x64quantprecision: '1' } },
    ...(opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
  });
}

/** The fixed batch size of a session's first input, or null when the batch dimension is free. */
export function fixedBatch(session: ort.InferenceSession): number | null {
  const meta = session.inputMetadata[0];
  if (!meta || !('shape' in meta)) return null;
  const first = meta.shape[0];
  return typeof first === 'number' && first > 0 ? first : null;
}
