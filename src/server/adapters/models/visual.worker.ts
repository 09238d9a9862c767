// The picture models on their own thread (see visualThread.ts).
import os from 'node:os';
import { BACKGROUND, idleThisThread } from '../process/tools';
import { serveModelThread } from './modelThread';
import { createVisualAnalyzer, type VisualFeature } from './visual';
import type { VisualThreadCall, VisualThreadInfo, VisualThreadOptions, VisualThreadResult } from './visualThread';

await serveModelThread<VisualThreadOptions, VisualThreadCall, VisualThreadResult, VisualThreadInfo>(async (opts) => {
  // On Linux a thread has its own nice value and scheduling policy, and the threads it starts
  // (onnxruntime's, OCR's) inherit them.
  try {
    os.setPriority(opts.nice ?? BACKGROUND.ingest.nice);
  } catch {
    // not permitted here: run at the normal priority
  }
  if (opts.idle ?? BACKGROUND.ingest.idle) idleThisThread();
  const analyzer = await createVisualAnalyzer(opts.modelsDir, {
    threads: opts.threads,
    skip: opts.skip as VisualFeature[] | undefined,
    corrupt: opts.corrupt,
  });
  return {
    info: { capabilities: analyzer.capabilities, missing: analyzer.missing } satisfies VisualThreadInfo,
    run: ({ images, chain }) =>
      analyzer.analyzeChained(
        images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)),
        chain,
      ),
    close: () => analyzer.close(),
  };
});
