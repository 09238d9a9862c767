import type { Kysely } from 'kysely';
import type { DB, OneTimeCodesTable } from '../../db/schema';

type Purpose = OneTimeCodesTable['purpose'];

export class CodeRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(userId: string, purpose: Purpose, codeHash: string, ttlSeconds: number) {
    await this.db
      .insertInto('one_time_codes')
      .values({ user_id: userId, purpose, code_hash: codeHash, expires_at: new Date(Date.now() + ttlSeconds * 1000) })
      .execute();
  }

  /**
   * Marks the code used and returns it, in one statement, so a code can be consumed exactly once
   * even under concurrent requests. Returns `expired` / `invalid` otherwise.
   */
  async consume(purpose: Purpose, codeHash: string): Promise<{ userId: string } | 'expired' | 'invalid'> {
    const used = await this.db
      .updateTable('one_time_codes')
      .set({ used_at: new Date() })
      .where('code_hash', '=', codeHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst();
    if (used) return { userId: used.user_id };
    // Not consumed: it has expired (unused) or it is unknown, used or replaced.
    return (await this.peek(purpose, codeHash)) === 'invalid' ? 'invalid' : 'expired';
  }

  /** What `consume` would find, without using the code: usable, `expired` or `invalid` (unknown, used or replaced). */
  async peek(purpose: Purpose, codeHash: string): Promise<'usable' | 'expired' | 'invalid'> {
    const row = await this.db
      .selectFrom('one_time_codes')
      .select(['used_at', 'expires_at'])
      .where('code_hash', '=', codeHash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.used_at) return 'invalid';
    return new Date(row.expires_at).getTime() > Date.now() ? 'usable' : 'expired';
  }

  /** Older unused codes of the same purpose stop working once a newer one is issued or one is used. */
  async revokeOthers(userId: string, purpose: Purpose) {
    await this.db
      .updateTable('one_time_codes')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }

  async deleteStale(olderThan: Date) {
    await this.db.deleteFrom('one_time_codes').where('expires_at', '<', olderThan).execute();
  }
}
