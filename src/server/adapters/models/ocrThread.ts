import type { RgbImage } from './image';
import { ModelThread } from './modelThread';
import { ocrModelDir, type OcrOptions, type OcrWord } from './ocr';

/** What the OCR thread reads: one frame's pixels. */
export interface OcrCall {
  width: number;
  height: number;
  data: Uint8Array;
  /** The sequence the frame is read in, and whether it starts afresh (OcrReader.read). */
  sequence?: string;
  fresh?: boolean;
}

/**
 * The OCR reader on a worker thread (modelThread.ts), so text is read while the calling thread runs
 * the other picture models. Frames are read in the order given: the reader follows captions from
 * one frame to the next.
 */
export class OcrThread {
  private constructor(private readonly thread: ModelThread<undefined, OcrCall, OcrWord[]>) {}

  /** Starts the thread; a missing model package or file throws ModelMissingError here, on the calling thread. */
  static async open(opts: OcrOptions = {}): Promise<OcrThread> {
    ocrModelDir();
    return new OcrThread(
      await ModelThread.open<undefined, OcrCall, OcrWord[]>(new URL('./ocr.worker.ts', import.meta.url), opts, 'text (PP-OCR)'),
    );
  }

  /** Words on the image (see OcrReader.read); the pixels are copied to the thread. */
  read(img: RgbImage, sequence = '', fresh = false): Promise<OcrWord[]> {
    const data = new Uint8Array(img.data); // a copy of its own, transferred rather than copied again
    return this.thread.call({ width: img.width, height: img.height, data, sequence, fresh } satisfies OcrCall, [data.buffer]);
  }

  /** Lets queued reads finish, releases the sessions and ends the thread. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
