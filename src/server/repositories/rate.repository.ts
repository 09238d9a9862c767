import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

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
