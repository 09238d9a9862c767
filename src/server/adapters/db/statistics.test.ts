import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepStatistics, refreshStatistics, staleTables, type RunSql } from './statistics';

describe('planner statistics for embedded PGlite', () => {
  let pg: PGlite;
  let run: RunSql;
  const reltuples = async (table: string) =>
    Number(((await run(`select reltuples::float8 as n from pg_class where relname = $1`, [table])).rows[0] as { n: number }).n);
  /** The planner's row estimate for a query, from EXPLAIN's first line. */
  const estimate = async (query: string) => {
    const plan = (await run(`explain ${query}`)).rows[0] as { 'QUERY PLAN': string };
    return Number(/rows=(\d+)/.exec(plan['QUERY PLAN'])![1]);
  };

  beforeAll(async () => {
    pg = new PGlite();
    run = (text, values) => pg.query(text, values);
    await pg.exec(`create table clips (id int primary key, kind text not null)`);
    await pg.exec(`insert into clips select g, case when g % 100 = 0 then 'rare' else 'common' end from generate_series(1, 20000) g`);
  }, 60_000);
  afterAll(() => pg.close());

  it('leaves a table unanalyzed by itself, as PGlite has no autovacuum', async () => {
    expect(await reltuples('clips')).toBe(-1);
    const counters = (await run(`select n_mod_since_analyze::int as n from pg_stat_user_tables where relname = 'clips'`)).rows[0];
    // PGlite's activity counters do not move either, so they cannot say when to analyze.
    expect(counters).toEqual({ n: 0 });
  });

  it('analyzes a table that never was, and the planner then knows how rare a value is', async () => {
    const before = await estimate(`select * from clips where kind = 'rare'`);
    expect(await refreshStatistics(run)).toEqual(['public.clips']);
    expect(await reltuples('clips')).toBe(20000);
    const after = await estimate(`select * from clips where kind = 'rare'`);
    expect(after).toBeGreaterThan(100);
    expect(after).toBeLessThan(400); // 200 rows are 'rare'
    expect(before).not.toBe(after);
  });

  it('does nothing while tables keep their size, and analyzes again once one grows by a fifth', async () => {
    expect(await refreshStatistics(run)).toEqual([]);
    await pg.exec(`insert into clips select g, 'common' from generate_series(20001, 26000) g`);
    expect(await refreshStatistics(run)).toEqual(['public.clips']);
    expect(await reltuples('clips')).toBe(26000);
  });

  it("merges a GIN index's pending list, which nothing else does here, so its searches stop reading it row by row", async () => {
    await pg.exec(`create table said (id serial primary key, tsv tsvector not null)`);
    await pg.exec(`create index said_tsv on said using gin (tsv)`);
    // rows inserted after the index wait in its pending list
    await pg.exec(
      `insert into said (tsv) select to_tsvector('simple', 'word' || (g % 500) || ' other' || (g % 37)) from generate_series(1, 20000) g`,
    );
    // The pages a search through the index reads (EXPLAIN's buffer counts): the pending list's, row by row, until merged.
    const pagesRead = async () => {
      const plan = (
        await run(`explain (analyze, buffers, costs off, format json) select id from said where tsv @@ 'word7 & other7'::tsquery`)
      ).rows[0] as { 'QUERY PLAN': Array<{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }> };
      const p = plan['QUERY PLAN'][0]!.Plan;
      return p['Shared Hit Blocks'] + p['Shared Read Blocks'];
    };
    const before = await pagesRead();
    expect(before).toBeGreaterThan(50);
    await refreshStatistics(run);
    const after = await pagesRead();
    expect(after, `${before} pages read before the merge, ${after} after`).toBeLessThan(20);
    expect((await run(`select count(*)::int as n from said where tsv @@ 'word7 & other7'::tsquery`)).rows).toEqual([{ n: 2 }]);
  });

  it('keeps checking on a timer, one run at a time, and stops cleanly', async () => {
    await pg.exec(`create table later (id int)`);
    await pg.exec(`insert into later select generate_series(1, 5000)`);
    const analyzed: string[][] = [];
    const keeper = keepStatistics(run, { everyMs: 50, onAnalyzed: (t) => analyzed.push(t) });
    await Promise.all([keeper.check(), keeper.check()]);
    await new Promise((r) => setTimeout(r, 200));
    await keeper.stop();
    expect(analyzed).toEqual([['public.later']]);
  });

  it('counts a change by pages: small tables by whole pages, large ones by a fifth, empty ones never', () => {
    const t = (reltuples: number, relpages: number, pages: number) => ({ schema: 'public', name: 'x', reltuples, relpages, pages });
    expect(staleTables([t(-1, 0, 0)])).toHaveLength(0);
    expect(staleTables([t(-1, 0, 1)])).toHaveLength(1);
    expect(staleTables([t(10, 1, 8)])).toHaveLength(0);
    expect(staleTables([t(10, 1, 9)])).toHaveLength(1);
    expect(staleTables([t(1e6, 1000, 1199)])).toHaveLength(0);
    expect(staleTables([t(1e6, 1000, 1200)])).toHaveLength(1);
    expect(staleTables([t(1e6, 1000, 700)])).toHaveLength(1);
  });
});
