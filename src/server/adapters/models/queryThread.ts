import type { CorruptModelFile } from './fetchModels';
import { ModelThread } from './modelThread';
import type { VisualAnalyzerOptions } from './visual';

/** What embedding a query photo needs of the visual analyzer: the classifier alone (on the thread, or here should it not start). */
export const QUERY_ANALYZER: VisualAnalyzerOptions = { skip: ['objects', 'faces', 'clip'], ocr: 'off' };

/** What the thread opens. */
export interface QueryThreadOptions {
  modelsDir: string;
  /** ONNX Runtime threads for the classifier (default 2: a query is waited for, ingest's models are not). */
  threads?: number;
  corrupt?: readonly CorruptModelFile[];
}

/**
 * The embedding of a search's query photo (decoding it and MobileNetV2) on a worker thread of its
 * own at the normal priority: ONNX Runtime's Node binding runs a session synchronously on the calling
 * thread, so on the main thread every search by photo held the event loop ~15 ms, and on ingest's
 * model thread it would wait behind a batch of keyframes. Two inference threads: 26 instead of 31 ms
 * a dog.jpg, for the same CPU time.
 */
export class QueryThread {
  private constructor(private readonly thread: ModelThread<undefined, Uint8Array, Float32Array>) {}

  static async open(opts: QueryThreadOptions): Promise<QueryThread> {
    return new QueryThread(
      await ModelThread.open<undefined, Uint8Array, Float32Array>(
        new URL('./query.worker.ts', import.meta.url),
        { threads: 2, ...opts },
        'image search (MobileNetV2)',
      ),
    );
  }

  /** The photo's embedding (empty when it cannot be decoded); the bytes are copied to the thread. */
  embed(image: Buffer): Promise<Float32Array> {
    const copy = new Uint8Array(image); // a copy of its own, transferred rather than copied again
    return this.thread.call(copy, [copy.buffer]);
  }

  /** Lets queued calls finish, releases the session and ends the thread. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
