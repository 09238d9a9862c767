import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingClient, statementName } from './namedStatements';
import { servePglite, shareStatements } from './pgliteWire';

// Several pg connections share PGlite's one session through servePglite. These tests fail if their
// statements mix (one's Bind on another's Parse: mismatched parameters, lost portals), if one's
// statements run inside another's open transaction, or if a dropped connection's transaction stays.

let db: PGlite;
let server: { close(): Promise<void> };
let dir: string;
let pool: pg.Pool;
/** Connections whose parameterised queries are named statements, as the server's (namedStatements.ts). */
let named: pg.Pool;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wire-'));
  db = await PGlite.create();
  server = await servePglite(db, path.join(dir, '.s.PGSQL.5432'));
  pool = new pg.Pool({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 8 });
  named = new pg.Pool({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 4, Client: namingClient() });
  await pool.query('create table t (tx int not null, n int not null)');
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await named?.end();
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

  it('shares named statements between connections: each prepares once, none is refused or closed for the others', async () => {
    const text = 'select $1::int * 2 as doubled';
    // 200 at once over 4 connections: every connection's first Parse of the same name reaches the
    // one session, where only the first may prepare it ("prepared statement already exists").
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => named.query<{ doubled: number }>(text, [i])));
    answers.forEach((a, i) => expect(a.rows).toEqual([{ doubled: 2 * i }]));
    const held = await pool.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements');
    expect(held.rows).toContainEqual({ name: statementName(text), statement: text });
    // A connection whose parameters cannot be sent closes the statement it parsed (pg's Close after
    // a failed Bind): the others, which parsed it before, still use it.
    const Client = namingClient();
    const c = new Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    await c.connect();
    try {
      await c.query(text, [1]);
      const unsendable = {
        toPostgres: () => {
          throw new Error('cannot be sent');
        },
      };
      await expect(c.query(text, [unsendable])).rejects.toThrow('cannot be sent');
      await c.query('select 1'); // its Close has been run
    } finally {
      await c.end();
    }
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => named.query<{ doubled: number }>(text, [i])));
    again.forEach((a, i) => expect(a.rows).toEqual([{ doubled: 2 * i }]));
  });

  it('names parameterised queries only, and no more distinct ones than its limit', async () => {
    const capped = new pg.Pool({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 1, Client: namingClient(1) });
    try {
      expect((await capped.query('select $1::int as first', [1])).rows).toEqual([{ first: 1 }]);
      expect((await capped.query('select $1::int as second', [2])).rows).toEqual([{ second: 2 }]);
      expect((await capped.query('select 3 as third')).rows).toEqual([{ third: 3 }]);
    } finally {
      await capped.end();
    }
    const held = (await pool.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
    expect(held).toContain('select $1::int as first');
    expect(held).not.toContain('select $1::int as second');
    expect(held).not.toContain('select 3 as third');
  });

  it('leaves a named statement that fails to its connection, and reports the same name with another text', async () => {
    await expect(named.query('select $1::int from no_such_table', [1])).rejects.toThrow('no_such_table');
    expect((await named.query<{ n: number }>('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
    // Another client's statement under a name already held, with other text: PostgreSQL's own answer.
    const c = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    await c.connect();
    try {
      const name = statementName('select $1::int as n');
      await expect(c.query({ name, text: 'select $1::text as other', values: ['x'] })).rejects.toThrow('already exists');
    } finally {
      await c.end();
    }
  });
});

describe('shareStatements', () => {
  const msg = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, 'latin1');
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cstr = (s: string) => Buffer.from(`${s}\0`);
  const parse = (name: string, text: string) => msg('P', Buffer.concat([cstr(name), cstr(text), Buffer.from([0, 0])]));
  const close = (name: string) => msg('C', Buffer.concat([Buffer.from('S'), cstr(name)]));
  const bind = msg('B', Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]));
  const sync = msg('S', Buffer.alloc(0));

  it('drops a leading Parse of a held statement with the same text, and only that', () => {
    const held = new Map([['s1', 'select 1']]);
    expect(shareStatements(Buffer.concat([parse('s1', 'select 1'), bind, sync]), held)).toEqual({
      message: Buffer.concat([bind, sync]),
      parse: { name: 's1', text: 'select 1' },
      answered: true,
    });
    const other = Buffer.concat([parse('s1', 'select 2'), bind, sync]);
    expect(shareStatements(other, held)).toEqual({ message: other, parse: { name: 's1', text: 'select 2' }, answered: false });
    const fresh = Buffer.concat([parse('s2', 'select 2'), bind, sync]);
    expect(shareStatements(fresh, held).answered).toBe(false);
    const unnamed = Buffer.concat([parse('', 'select 1'), bind, sync]);
    expect(shareStatements(unnamed, held)).toMatchObject({ message: unnamed, answered: false });
  });

  it('turns a Close of a held statement into a Close of the unnamed one, and leaves other Closes', () => {
    const held = new Map([['s1', 'select 1']]);
    expect(shareStatements(Buffer.concat([close('s1'), sync]), held).message).toEqual(Buffer.concat([close(''), sync]));
    const unheld = Buffer.concat([close('s9'), sync]);
    expect(shareStatements(unheld, held).message).toBe(unheld);
  });
});
