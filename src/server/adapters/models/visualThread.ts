import type { CorruptModelFile } from './fetchModels';
import { ModelThread } from './modelThread';
import type { VisualAnalyzer, VisualChain, VisualFeatures } from './types';

/** What the thread opens: createVisualAnalyzer's arguments, plus the thread's niceness. */
export interface VisualThreadOptions {
  modelsDir: string;
  threads?: number;
  skip?: string[];
  corrupt?: readonly CorruptModelFile[];
  /** Scheduling priority of the thread (Linux nice, 0..19; default BACKGROUND.ingest.nice): indexing yields the CPU to requests. */
  nice?: number;
  /** SCHED_IDLE as well (default BACKGROUND.ingest.idle): the thread runs only on CPU time requests leave. */
  idle?: boolean;
}

/** One batch for the thread, and its answer. */
export type VisualThreadCall = { images: Uint8Array[]; chain: VisualChain };
export type VisualThreadResult = { features: VisualFeatures[]; chain: VisualChain };

/** What the thread tells when ready. */
export interface VisualThreadInfo {
  capabilities: string[];
  missing: string[];
}

/**
 * The picture models of ingest (YOLOX, MobileNet, colours, and the OCR thread they start) on a
 * worker thread of their own (modelThread.ts), at a lower scheduling priority: on the main thread
 * every keyframe held the server's event loop for tens of milliseconds, so searches answered slowly
 * while anything was indexing. `embed` (a search's query image) is not served here: it would wait
 * behind an ingest batch.
 */
export class VisualThread implements Pick<VisualAnalyzer, 'capabilities' | 'analyze' | 'analyzeChained' | 'close'> {
  readonly capabilities: string[];
  readonly missing: string[];

  private constructor(private readonly thread: ModelThread<VisualThreadInfo, VisualThreadCall, VisualThreadResult>) {
    this.capabilities = thread.info.capabilities;
    this.missing = thread.info.missing;
  }

  static async open(opts: VisualThreadOptions): Promise<VisualThread> {
    return new VisualThread(
      await ModelThread.open<VisualThreadInfo, VisualThreadCall, VisualThreadResult>(
        new URL('./visual.worker.ts', import.meta.url),
        opts,
        'visual models',
      ),
    );
  }

  /** This caller's chain for `analyze` (ingest keeps its own: analyzeChained). */
  private chain: VisualChain = null;

  /** Features of each encoded image, in order (see VisualAnalyzer.analyze); the bytes are copied to the thread. */
  async analyze(images: Buffer[]): Promise<VisualFeatures[]> {
    const r = await this.analyzeChained(images, this.chain);
    this.chain = r.chain;
    return r.features;
  }

  /** See VisualAnalyzer.analyzeChained: the chain goes to the thread and back with the batch. */
  analyzeChained(images: Buffer[], chain: VisualChain): Promise<VisualThreadResult> {
    const copies = images.map((b) => new Uint8Array(b)); // own buffers, transferred rather than copied again
    return this.thread.call(
      { images: copies, chain },
      copies.map((c) => c.buffer),
    );
  }

  /** Lets queued batches finish, releases the sessions and ends the thread. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
