// A search's query photo embedded on its own thread (see queryThread.ts).
import { serveModelThread } from './modelThread';
import { createVisualAnalyzer } from './visual';
import { QUERY_ANALYZER, type QueryThreadOptions } from './queryThread';

await serveModelThread<QueryThreadOptions, Uint8Array, Float32Array>(async (opts) => {
  const analyzer = await createVisualAnalyzer(opts.modelsDir, { ...QUERY_ANALYZER, threads: opts.threads, corrupt: opts.corrupt });
  return {
    run: (image) => analyzer.embed(Buffer.from(image.buffer, image.byteOffset, image.byteLength)),
    close: () => analyzer.close(),
  };
});
