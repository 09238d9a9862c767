/**
 * How wide every connection's HNSW scans look, set once per connection rather than in a
 * transaction around each vector search (four statements more each time, 4.5 ms on PGlite): a
 * search list as long as the longest answer a search asks of the graph, and pgvector's iterative
 * scan, which keeps scanning when the library filter removes candidates, so a small library among
 * many still gets its nearest neighbours.
 */
export const VECTOR_SEARCH_WIDTH = 400;

/**
 * What every connection runs first. Set before pgvector is loaded in the session, these are
 * placeholders that it takes over when it loads.
 */
export const SESSION_SETTINGS = `set hnsw.ef_search = ${VECTOR_SEARCH_WIDTH}; set hnsw.iterative_scan = relaxed_order`;
