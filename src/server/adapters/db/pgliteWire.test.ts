import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePglite } from './pgliteWire';

// Several pg connections share PGlite's one session through servePglite. These tests fail if their
// statements mix (one's Bind on another's Parse: mismatched parameters, lost portals), if one's
// statements run inside another's open transaction, or if a dropped connection's transaction stays.

let db: PGlite;
let server: { close(): Promise<void> };
let dir: string;
let pool: pg.Pool;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wire-'));
  db = await PGlite.create();
  server = await servePglite(db, path.join(dir, '.s.PGSQL.5432'));
  pool = new pg.Pool({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 8 });
  await pool.query('create table t (tx int not null, n int not null)');
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await server?.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pause = () => new Promise((r) => setTimeout(r, Math.random() * 3));

describe('servePglite', () => {
  it('answers every parameterised query with its own statement and parameters, 600 at once over 8 connections', async () => {
    // Three statement shapes with different parameters, so a Bind landing on another connection's
    // statement fails or answers the wrong columns.
    const ask = (i: number) =>
      i % 3 === 0
        ? pool.query('select $1::int as n, $2::text as s', [i, `q${i}`])
        : i % 3 === 1
          ? pool.query("select $1::text || '!' as t", [`t${i}`])
          : pool.query('select $1::int + $2::int + $3::int as sum', [i, 1, 2]);
    const expected = (i: number) => (i % 3 === 0 ? { n: i, s: `q${i}` } : i % 3 === 1 ? { t: `t${i}!` } : { sum: i + 3 });
    const answers = await Promise.allSettled(Array.from({ length: 600 }, (_, i) => ask(i)));
    answers.forEach((r, i) => expect(r).toEqual({ status: 'fulfilled', value: expect.objectContaining({ rows: [expected(i)] }) }));
  });

  it('runs transactions whole: others never see or join one that is open, and a rollback leaves nothing', async () => {
    const seen: number[] = [];
    let done = false;
    const reader = (async () => {
      while (!done) {
        seen.push(Number((await pool.query<{ c: string }>('select count(*) as c from t')).rows[0]!.c));
        await pause();
      }
    })();
    const transactions = Array.from({ length: 16 }, async (_, tx) => {
      const c = await pool.connect();
      try {
        await c.query('begin');
        for (let n = 0; n < 5; n++) {
          await c.query('insert into t (tx, n) values ($1, $2)', [tx, n]);
          await pause();
        }
        const own = await c.query<{ c: string }>('select count(*) as c from t where tx = $1', [tx]);
        expect(Number(own.rows[0]!.c)).toBe(5);
        await c.query(tx % 2 ? 'rollback' : 'commit');
      } finally {
        c.release();
      }
    });
    await Promise.all(transactions);
    done = true;
    await reader;
    const rows = (await pool.query<{ tx: number; c: string }>('select tx, count(*) as c from t group by tx order by tx')).rows;
    expect(rows.map((r) => [r.tx, Number(r.c)])).toEqual(Array.from({ length: 8 }, (_, i) => [i * 2, 5]));
    // Committed transactions appear whole, five rows at a time.
    expect(seen.length).toBeGreaterThan(0);
    for (const c of seen) expect(c % 5).toBe(0);
  });

  it('rolls back the transaction of a connection that goes away, and serves the others', async () => {
    const c = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    c.on('error', () => undefined);
    await c.connect();
    await c.query('begin');
    await c.query('insert into t (tx, n) values (99, 0)');
    const waiting = pool.query<{ c: string }>('select count(*) as c from t where tx = 99');
    (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect(Number((await waiting).rows[0]!.c)).toBe(0);
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('keeps a failed statement to its own connection', async () => {
    const [bad, good] = await Promise.allSettled([pool.query('select 1/0'), pool.query('select 2 as two')]);
    expect(bad.status).toBe('rejected');
    expect(good).toMatchObject({ status: 'fulfilled', value: { rows: [{ two: 2 }] } });
  });
});
