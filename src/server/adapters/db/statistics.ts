/**
 * Planner statistics for embedded PGlite. PGlite runs PostgreSQL as one backend with no autovacuum
 * launcher, and its activity counters (pg_stat_user_tables) stay at 0, so nothing ever runs ANALYZE:
 * every table keeps `reltuples = -1` and no column statistics, and the planner guesses. Measured on the
 * 100-hour search seed with its statistics removed: image search p50 2,746 ms instead of 88 (the HNSW
 * index is no longer chosen), text 131 instead of 56, transcript 115 instead of 51.
 *
 * So the process that owns PGlite analyzes a table itself when it has grown or shrunk by a fifth
 * since its last ANALYZE (its size in pages against `relpages`, which ANALYZE records), or was never
 * analyzed. ANALYZE samples at most 30,000 rows, so a table of any size takes about 2 s at most here
 * (the 100-hour keyframes table: 2.1 s), and one table is analyzed per statement, so requests are
 * served between tables. PostgreSQL proper has autovacuum and needs none of this.
 *
 * Nor does anything merge a GIN index's pending list (rows inserted since the index was built wait
 * there, up to gin_pending_list_limit, 4 MB, until a VACUUM): every search through the index reads
 * the whole list, row by row. Measured: 20,000 tsvectors inserted after their index (226 pending
 * pages) made a two-word tsquery 4.2 ms instead of 0.3 once merged, and the expanded transcript
 * statement scans that index up to three times. So each check also merges the pending lists of
 * every GIN index (gin_clean_pending_list: nothing to do costs a page read).
 */

/** What `refreshStatistics` runs SQL with: the pool's `query`. */
export type RunSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/** Schemas whose tables are kept analyzed: ours and pg-boss's queue. */
const SCHEMAS = ['public', 'pgboss'];
/** A table is analyzed again once its size in pages has changed by this share... */
const CHANGE = 0.2;
/** ...and by at least this many pages (small tables change size by whole pages). */
const MIN_PAGES = 8;
/** How often the sizes are compared (one cheap statement). */
const STATISTICS_CHECK_MS = 60_000;

interface TableSize {
  schema: string;
  name: string;
  reltuples: number;
  relpages: number;
  pages: number;
}

/** Tables whose statistics are missing or stale, by the rule above. */
export function staleTables(tables: TableSize[]): TableSize[] {
  return tables.filter((t) => {
    if (t.pages === 0) return false;
    if (t.reltuples < 0) return true;
    return Math.abs(t.pages - t.relpages) >= Math.max(MIN_PAGES, CHANGE * t.relpages);
  });
}

/** Analyzes each stale table (one statement each, none more once `stopping` says so) and returns their qualified names. */
export async function refreshStatistics(run: RunSql, stopping: () => boolean = () => false): Promise<string[]> {
  const { rows } = await run(
    `select n.nspname as schema, c.relname as name, c.reltuples::float8 as reltuples, c.relpages::int as relpages,
       (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname = any($1)`,
    [SCHEMAS],
  );
  const done: string[] = [];
  for (const t of staleTables(rows as TableSize[])) {
    if (stopping()) break;
    const name = `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
    await run(`analyze ${name}`);
    done.push(`${t.schema}.${t.name}`);
  }
  if (!stopping()) await mergeGinPendingLists(run, stopping);
  return done;
}

/** Merges each GIN index's pending list into the index (what VACUUM does); the pages merged, in all. */
export async function mergeGinPendingLists(run: RunSql, stopping: () => boolean = () => false): Promise<number> {
  const { rows } = await run(
    `select c.oid::int as oid from pg_class c
     join pg_am am on am.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'i' and am.amname = 'gin' and n.nspname = any($1)`,
    [SCHEMAS],
  );
  let pages = 0;
  for (const { oid } of rows as Array<{ oid: number }>) {
    if (stopping()) break;
    const r = await run(`select gin_clean_pending_list($1::oid::regclass)::int as pages`, [oid]);
    pages += (r.rows[0] as { pages: number }).pages;
  }
  return pages;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Refreshes statistics every `everyMs` and whenever `check` is called (the server calls it once it
 * has started), one run at a time; errors go to `onError` and the next check tries again. `stop`
 * lets a run in progress finish the table it is analyzing, and waits for that.
 */
export function keepStatistics(
  run: RunSql,
  o: { everyMs?: number; onAnalyzed?(tables: string[]): void; onError?(err: unknown): void } = {},
): { stop(): Promise<void>; check(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= refreshStatistics(run, () => stopped)
      .then((tables) => {
        if (tables.length) o.onAnalyzed?.(tables);
      })
      .catch((err: unknown) => o.onError?.(err))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void check(), o.everyMs ?? STATISTICS_CHECK_MS);
  timer.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
