import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from '../../db/schema';
import { poolConnection } from '../../db/sessionSettings';
import { spawnTsWorker } from '../tsWorker';
import { acquireDataDirLock } from './dataDirLock';
import { namingClient } from './namedStatements';

// Timestamps come back as ISO strings and bigint counts as numbers, on PGlite and PostgreSQL alike.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface Database {
  db: Kysely<DB>;
  /** Raw SQL on the same connection(s); pg-boss uses it through `db.executeSql`. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** Connections from the main thread to embedded PGlite: enough that a query is always waiting in its thread. */
const PGLITE_CONNECTIONS = 4;

/**
 * PostgreSQL through DATABASE_URL (a normal pool), or else embedded PGlite under dataDir in a
 * worker thread reached over a unix socket (pgliteWire.ts: PGlite is one session, and the
 * connections take turns in it by whole statements and whole transactions).
 */
export async function openDatabase(opts: { dataDir: string; databaseUrl: string | null }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ ...poolConnection(opts.databaseUrl), max: 10 });
    return wrap(pool, 'postgres', async () => undefined);
  }
  const release = acquireDataDirLock(opts.dataDir);
  const pgDir = path.join(opts.dataDir, 'pg');
  fs.mkdirSync(pgDir, { recursive: true });
  // Unix socket paths are limited to ~107 bytes, so the socket lives in a short temp folder.
  const sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csdb-'));
  const worker = spawnTsWorker(new URL('./pglite.worker.ts', import.meta.url), {
    workerData: { dataDir: pgDir, socketPath: path.join(sockDir, '.s.PGSQL.5432') },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`database worker exited (${code})`)));
      worker.once('message', (m: { type: string; message?: string }) =>
        m.type === 'ready' ? resolve() : reject(new Error(`database worker failed: ${m.message}`)),
      );
    });
  } catch (err) {
    await worker.terminate();
    release();
    throw err;
  }
  worker.removeAllListeners('exit');
  const pool = new pg.Pool({
    host: sockDir,
    port: 5432,
    user: 'postgres',
    database: 'postgres',
    max: PGLITE_CONNECTIONS,
    Client: namingClient(),
  });
  return wrap(pool, 'pglite', async () => {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 5000);
      worker.once('message', () => {
        clearTimeout(t);
        resolve();
      });
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
    fs.rmSync(sockDir, { recursive: true, force: true });
    release();
  });
}

function wrap(pool: pg.Pool, kind: Database['kind'], close: () => Promise<void>): Database {
  pool.on('error', () => {
    /* a dropped idle connection is replaced on next use */
  });
  // A connection checked out of the pool (a transaction, a query between two others) that the
  // database drops (a restart, a failover) emits 'error' on its client, and with no listener that
  // is an uncaught exception that killed the whole process; the statement in flight fails on its
  // own and the pool discards the broken client when it is released, so the listener only has to exist.
  pool.on('connect', (client) =>
    client.on('error', () => {
      /* reported to the caller through its failed query */
    }),
  );
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    kind,
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    async close() {
      if (closed) return;
      closed = true;
      // Kysely's destroy ends the pool; then the embedded engine (if any) is stopped.
      await db.destroy().catch(() => undefined);
      await close();
    },
  };
}
