import PgBoss from 'pg-boss';
import type { Database } from '../db/database';

/** pg-boss on the application's own database connection (PGlite allows exactly one). */
export async function startQueue(database: Database, onError: (err: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    // One connection is shared with the API, so keep background maintenance light.
    monitorStateIntervalSeconds: 60,
    maintenanceIntervalSeconds: 300,
  });
  boss.on('error', onError);
  await boss.start();
  return boss;
}
