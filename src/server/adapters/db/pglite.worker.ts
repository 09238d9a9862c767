// Runs PGlite in its own thread so index builds never block the API's event loop, and exposes it
// over a unix socket that exactly one pg connection in the main thread uses.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

interface Init {
  dataDir: string;
  socketPath: string;
}
const { dataDir, socketPath } = workerData as Init;

/**
 * Postgres's own page cache: an eighth of the machine's memory, between 128 MB (PGlite's default)
 * and 1 GB. Pages it does not hold are read through the file system on every scan, one pread call
 * from the WebAssembly build at a time: at 100 hours of video the image-embedding index alone is
 * ~230 MB, and 1 GB instead of 128 MB took the text search's p95 from ~180 to ~100 ms.
 */
function sharedBuffersMb() {
  return Math.round(Math.min(1024, Math.max(128, os.totalmem() / 8 / 2 ** 20)));
}

async function main() {
  const db = await PGlite.create({
    dataDir,
    extensions: { vector },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb()}MB`],
  });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  parentPort!.postMessage({ type: 'ready' });
  parentPort!.on('message', (msg: { type: string }) => {
    if (msg.type !== 'stop') return;
    void (async () => {
      await server.stop();
      await db.close();
      parentPort!.postMessage({ type: 'stopped' });
    })();
  });
}

main().catch((err: unknown) => {
  parentPort!.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
