// The OCR reader on its own thread (see ocrThread.ts).
import { serveModelThread } from './modelThread';
import { OcrReader, type OcrOptions, type OcrWord } from './ocr';
import type { OcrCall } from './ocrThread';

await serveModelThread<OcrOptions, OcrCall, OcrWord[]>(async (opts) => {
  const reader = await OcrReader.open(opts);
  return {
    run: (m) =>
      reader.read(
        { data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength), width: m.width, height: m.height },
        m.sequence,
        m.fresh,
      ),
    close: () => reader.close(),
  };
});
