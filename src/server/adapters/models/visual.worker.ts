// The picture models on their own thread (see visualThread.ts).
import os from 'node:os';
import { NICE } from '../process/tools';
import { serveModelThread } from './modelThread';
import { createVisualAnalyzer, type VisualFeature } from './visual';
import type { VisualThreadInfo, VisualThreadOptions } from './visualThread';

await serveModelThread<VisualThreadOptions, Uint8Array[]>(async (opts) => {
  // On Linux a thread has its own nice value, and the threads it starts (OCR's) inherit it.
  try {
    os.setPriority(opts.nice ?? NICE.ingest);
  } catch {
    // not permitted here: run at the normal priority
  }
  const analyzer = await createVisualAnalyzer(opts.modelsDir, {
    threads: opts.threads,
    skip: opts.skip as VisualFeature[] | undefined,
    corrupt: opts.corrupt,
  });
  return {
    info: { capabilities: analyzer.capabilities, missing: analyzer.missing } satisfies VisualThreadInfo,
    run: (images) => analyzer.analyze(images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))),
    close: () => analyzer.close(),
  };
});
