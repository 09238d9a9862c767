// The OCR reader on its own thread (see ocrThread.ts): one request at a time, in order, because the
// reader follows captions from one frame to the next.
import { parentPort, workerData } from 'node:worker_threads';
import { OcrReader, type OcrOptions } from './ocr';
import type { OcrReply, OcrRequest } from './ocrThread';

const port = parentPort!;
const post = (m: OcrReply) => port.postMessage(m);

try {
  const reader = await OcrReader.open(workerData as OcrOptions);
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: OcrRequest) => {
    queue = queue.then(async () => {
      if (m.type === 'close') {
        await reader.close();
        post({ type: 'closed' });
        return;
      }
      try {
        const words = await reader.read({
          data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength),
          width: m.width,
          height: m.height,
        });
        post({ type: 'words', id: m.id, words });
      } catch (err) {
        post({ type: 'failed', id: m.id, message: (err as Error).message });
      }
    });
  });
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'failed', id: -1, message: (err as Error).message });
}
