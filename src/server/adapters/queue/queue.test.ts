import { describe, expect, it, vi } from 'vitest';
import { queueDb } from './queue';

describe('queueDb', () => {
  it('sends statements while the database is open, and answers none once it is closing', async () => {
    let closed = false;
    const executeSql = vi.fn(() => Promise.resolve({ rows: [{ id: 1 }] }));
    const db = queueDb({ executeSql }, () => closed);
    expect(await db.executeSql('select 1')).toEqual({ rows: [{ id: 1 }] });
    closed = true;
    // A late handler's outcome: nothing is sent to an ended pool, nothing rejects.
    expect(await db.executeSql('update pgboss.job set state = $1', ['failed'])).toEqual({ rows: [] });
    expect(executeSql).toHaveBeenCalledTimes(1);
  });
});
