import { describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
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

  it("answers pg-boss's commands with a count of 0 once closing, so its un-awaited fail and complete do not throw", async () => {
    // pg-boss's own Manager, as it records a handler that outlived the shutdown.
    const Manager = createRequire(import.meta.url)('pg-boss/src/manager.js') as new (
      db: unknown,
      config: object,
    ) => {
      fail(name: string, ids: string[], err: unknown): Promise<{ affected: number }>;
      complete(name: string, ids: string[]): Promise<{ affected: number }>;
      cancel(name: string, ids: string[]): Promise<{ affected: number }>;
    };
    const sent = vi.fn(() => Promise.reject(new Error('sent to a closed database')));
    const manager = new Manager(
      queueDb({ executeSql: sent }, () => true),
      { schema: 'pgboss' },
    );
    const ids = ['00000000-0000-4000-8000-000000000000'];
    await expect(manager.fail('media.render', ids, new Error('x'))).resolves.toMatchObject({ affected: 0 });
    await expect(manager.complete('media.render', ids)).resolves.toMatchObject({ affected: 0 });
    await expect(manager.cancel('media.render', ids)).resolves.toMatchObject({ affected: 0 });
    expect(sent).not.toHaveBeenCalled();
  });
});
