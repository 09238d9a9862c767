// The picture models on their own thread (see visualThread.ts): one batch at a time, in order,
// because the OCR reader they use follows captions from one frame to the next.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createVisualAnalyzer, type VisualFeature } from './visual';
import type { VisualReply, VisualRequest, VisualThreadOptions } from './visualThread';

const port = parentPort!;
const post = (m: VisualReply) => port.postMessage(m);
const opts = workerData as VisualThreadOptions;

try {
  // On Linux a thread has its own nice value, and the threads it starts (OCR's) inherit it.
  try {
    os.setPriority(opts.nice ?? 10);
  } catch {
    // not permitted here: run at the normal priority
  }
  const analyzer = await createVisualAnalyzer(opts.modelsDir, {
    threads: opts.threads,
    skip: opts.skip as VisualFeature[] | undefined,
    corrupt: opts.corrupt,
  });
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: VisualRequest) => {
    queue = queue.then(async () => {
      if (m.type === 'close') {
        await analyzer.close();
        post({ type: 'closed' });
        return;
      }
      try {
        const features = await analyzer.analyze(m.images.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
        post({ type: 'features', id: m.id, features });
      } catch (err) {
        post({ type: 'failed', id: m.id, message: (err as Error).message });
      }
    });
  });
  post({ type: 'ready', capabilities: analyzer.capabilities, missing: analyzer.missing });
} catch (err) {
  post({ type: 'failed', id: -1, message: (err as Error).message });
}
