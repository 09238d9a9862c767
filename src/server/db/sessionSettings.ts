/**
 * How wide every connection's HNSW scans look, set once per session rather than in a transaction
 * around each vector search (four statements more each time, 4.5 ms on PGlite): a search list as
 * long as the longest answer a search asks of the graph, and pgvector's iterative scan, which keeps
 * scanning when the library filter removes candidates, so a small library among many still gets its
 * nearest neighbours.
 */
export const VECTOR_SEARCH_WIDTH = 400;

const SETTINGS: ReadonlyArray<readonly [string, string]> = [
  ['hnsw.ef_search', String(VECTOR_SEARCH_WIDTH)],
  ['hnsw.iterative_scan', 'relaxed_order'],
];

/**
 * The settings as a PostgreSQL connection's startup options (pg's `options`), so that they hold
 * from the session's start without a statement of their own. Before pgvector is loaded in the
 * session they are placeholders that it takes over when it loads.
 */
export const SESSION_OPTIONS = SETTINGS.map(([name, value]) => `-c ${name}=${value}`).join(' ');

/**
 * A pool's connection string and startup options: ours first, then any `options` the URL carries
 * (PostgreSQL applies the last `-c` of a setting, so the deployment's own choice wins). pg lets a
 * URL's `options` replace the pool's outright, which would drop ours without a word. A string that
 * is not a URL (`host=… dbname=…`) is passed on as it is.
 */
export function poolConnection(databaseUrl: string): { connectionString: string; options: string } {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return { connectionString: databaseUrl, options: SESSION_OPTIONS };
  }
  const own = url.searchParams.get('options');
  if (own === null) return { connectionString: databaseUrl, options: SESSION_OPTIONS };
  url.searchParams.delete('options');
  return { connectionString: url.toString(), options: `${SESSION_OPTIONS} ${own}`.trim() };
}

/** The same as statements, for embedded PGlite's one session (its socket passes no startup options on). */
export const SESSION_SETTINGS_SQL = SETTINGS.map(([name, value]) => `set ${name} = ${value};`).join(' ');
