import PgBoss from 'pg-boss';
import type { Database } from '../db/database';

/**
 * The database as pg-boss uses it. Once `closed()` (the process is shutting down and its database
 * is closing), a statement is answered with no rows instead of being sent: pg-boss records the
 * outcome of a handler that outlived the shutdown's wait without awaiting it, and that call then
 * failed as an unhandled rejection ("Cannot use a pool after calling end"). Unrecorded, the job is
 * still 'active' in the database, and is handed back after the restart like a job cut off by a
 * crash (requeueOrphanedJobs; with PostgreSQL, its lease or expiry).
 */
export function queueDb(database: Pick<Database, 'executeSql'>, closed: () => boolean) {
  return {
    executeSql: (text: string, values?: unknown[]): Promise<{ rows: unknown[] }> =>
      closed() ? Promise.resolve(unsentAnswer(text)) : database.executeSql(text, values),
  };
}

/**
 * pg-boss's commands (complete, fail, cancel...) end in a count it reads as `rows[0].count`
 * (Manager.mapCommandResponse): an answer without that row threw a TypeError in its un-awaited
 * `fail`, an unhandled rejection (seen as a test server closed under a failing render job).
 */
const COUNTED = /select count\(\*\)(?: as count)? from (?:results\b|\S+\.job where)/i;
/** What a statement not sent (the database is closing) is answered: no rows, or a count of 0. */
function unsentAnswer(text: string): { rows: unknown[] } {
  return COUNTED.test(text) ? { rows: [{ count: '0' }] } : { rows: [] };
}

/** pg-boss on the application's own database connection (PGlite allows exactly one). */
export async function startQueue(database: Database, onError: (err: Error) => void, closed: () => boolean = () => false): Promise<PgBoss> {
  const boss = new PgBoss({
    db: queueDb(database, closed),
    // One connection is shared with the API, so keep background maintenance light.
    monitorStateIntervalSeconds: 60,
    maintenanceIntervalSeconds: 300,
  });
  boss.on('error', onError);
  await boss.start();
  return boss;
}
