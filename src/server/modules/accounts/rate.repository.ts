import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** Sliding-window counters kept in the database, so every API process sees the same limits. */
export class RateRepository {
  constructor(private readonly db: Kysely<DB>) {}

  record(key: string) {
    return this.db.insertInto('rate_events').values({ key }).execute();
  }

  async count(key: string, windowSeconds: number): Promise<number> {
    const row = await this.db
      .selectFrom('rate_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('key', '=', key)
      .where('at', '>', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Seconds until key has fewer than `max` events in the last `windowSeconds` (when its oldest counted
   * one leaves the window), or 0 when it has fewer already.
   */
  async waitFor(key: string, windowSeconds: number, max: number): Promise<number> {
    const row = await this.db
      .selectFrom('rate_events')
      .select(sql<number>`extract(epoch from (at + make_interval(secs => ${windowSeconds}) - now()))`.as('wait'))
      .where('key', '=', key)
      .where('at', '>', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
      .orderBy('at', 'desc')
      .offset(max - 1)
      .limit(1)
      .executeTakeFirst();
    return row ? Math.max(1, Math.ceil(Number(row.wait))) : 0;
  }

  /** Seconds since the latest event for key, or null if none. */
  async secondsSinceLast(key: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('rate_events')
      .select(sql<number>`extract(epoch from (now() - max(at)))`.as('s'))
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.s == null ? null : Number(row.s);
  }

  clear(key: string) {
    return this.db.deleteFrom('rate_events').where('key', '=', key).execute();
  }

  deleteOlderThan(seconds: number) {
    return this.db
      .deleteFrom('rate_events')
      .where('at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
      .execute();
  }
}
