import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Distinct statements named at most (the first ones seen: the hot ones come early). A name is a
 * prepared statement kept by the database session, so the count is bounded; later statements run
 * unnamed, as before.
 */
export const MAX_NAMED_STATEMENTS = 1000;

/** The name a statement's text is prepared under: a hash of the text, so every connection agrees on it. */
export function statementName(text: string): string {
  return `s${createHash('sha1').update(text).digest('hex').slice(0, 30)}`;
}

/**
 * A pg `Client` class that runs every parameterised query as a named statement: each connection
 * sends its text once, and PostgreSQL keeps the parsed statement and, once its generic plan costs
 * no more than planning each call (plan_cache_mode auto, after five calls), the plan too. On
 * embedded PGlite, whose one thread runs every statement, parsing and planning were most of a
 * small library's search: the load bench's 1,500 searches took 5.7-6.6 s of that thread unnamed
 * and 2.5-2.6 s named; a primary-key lookup alone, 0.23 against 0.09 ms. Queries without parameters
 * (pg's simple protocol: several statements in one string, DDL) and queries that name themselves
 * are left as they are.
 */
export function namingClient(max = MAX_NAMED_STATEMENTS): typeof pg.Client {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < max) names.set(text, (name = statementName(text)));
    return name;
  };
  class NamingClient extends pg.Client {
    // pg's overloads (text or config, values or callback) are passed on unchanged but for the one case.
    override query(...args: unknown[]): never {
      const [config, values, callback] = args;
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = nameOf(config);
        if (name) args = [{ name, text: config, values }, ...(callback === undefined ? [] : [callback])];
      }
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  }
  return NamingClient;
}
