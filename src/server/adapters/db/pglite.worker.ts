// Runs PGlite in its own thread so index builds never block the API's event loop, and exposes it
// over a unix socket to the main thread's pg pool (see pgliteWire.ts for how connections share it).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite-pgvector';
import { SESSION_SETTINGS_SQL } from '../../db/sessionSettings';
import { servePglite } from './pgliteWire';

interface Init {
  dataDir: string;
  socketPath: string;
}
const { dataDir, socketPath } = workerData as Init;

async function main() {
  const db = await PGlite.create({ dataDir, extensions: { vector, btree_gin } });
  // PGlite is one session, shared by the socket's connections: its settings hold for all of them.
  await db.exec(SESSION_SETTINGS_SQL);
  const server = await servePglite(db, socketPath);
  parentPort!.postMessage({ type: 'ready' });
  parentPort!.on('message', (msg: { type: string }) => {
    if (msg.type !== 'stop') return;
    void (async () => {
      await server.close();
      await db.close();
      parentPort!.postMessage({ type: 'stopped' });
    })();
  });
}

main().catch((err: unknown) => {
  parentPort!.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
