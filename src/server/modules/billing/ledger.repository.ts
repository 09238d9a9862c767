import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { CreditEntriesTable, CreditNotesTable, DB } from '../../db/schema';

export type NoteRow = Selectable<CreditNotesTable>;
export type EntryRow = Selectable<CreditEntriesTable>;

/** The operations a balance change may do, all inside one transaction holding the account's lock. */
export class LockedAccount {
  constructor(
    private readonly trx: Transaction<DB>,
    readonly userId: string,
    readonly debt: number,
  ) {}

  entryByKey(key: string) {
    return this.trx
      .selectFrom('credit_entries')
      .selectAll()
      .where('user_id', '=', this.userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /** Notes that still count at `now`, soonest-expiring first (notes without expiry last). */
  liveNotes(now: Date) {
    return this.trx
      .selectFrom('credit_notes')
      .selectAll()
      .where('user_id', '=', this.userId)
      .where('current_amount', '>', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy(sql`expires_at asc nulls last`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  setNoteAmount(id: string, amount: number) {
    return this.trx.updateTable('credit_notes').set({ current_amount: amount }).where('id', '=', id).execute();
  }

  setDebt(debt: number) {
    return this.trx.updateTable('credit_accounts').set({ debt }).where('user_id', '=', this.userId).execute();
  }

  insertNote(n: { origin: string; original: number; current: number; expiresAt: Date | null; invoiceId: string | null }) {
    return this.trx
      .insertInto('credit_notes')
      .values({
        user_id: this.userId,
        origin: n.origin,
        original_amount: n.original,
        current_amount: n.current,
        expires_at: n.expiresAt,
        invoice_id: n.invoiceId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  insertEntry(e: {
    kind: 'grant' | 'charge';
    amount: number;
    key: string;
    reason: string;
    allocations: Array<{ noteId: string; amount: number }>;
    noteId: string | null;
  }) {
    return this.trx
      .insertInto('credit_entries')
      .values({
        user_id: this.userId,
        kind: e.kind,
        amount: e.amount,
        idempotency_key: e.key,
        reason: e.reason,
        allocations: JSON.stringify(e.allocations),
        note_id: e.noteId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

export class LedgerRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Runs `fn` in a transaction that holds this user's account row lock, so balance changes never interleave. */
  withAccount<T>(userId: string, fn: (acct: LockedAccount) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('credit_accounts')
        .values({ user_id: userId })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const row = await trx
        .selectFrom('credit_accounts')
        .select('debt')
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      return fn(new LockedAccount(trx, userId, Number(row.debt)));
    });
  }

  async balance(userId: string, now = new Date()) {
    const r = await this.db
      .selectFrom('credit_notes')
      .select(sql<number>`coalesce(sum(current_amount), 0)::float8`.as('s'))
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    const acct = await this.db.selectFrom('credit_accounts').select('debt').where('user_id', '=', userId).executeTakeFirst();
    return Number(r?.s ?? 0) - Number(acct?.debt ?? 0);
  }

  notes(userId: string) {
    return this.db
      .selectFrom('credit_notes')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  entries(userId: string, limit: number, olderThan?: Date) {
    let q = this.db.selectFrom('credit_entries').selectAll().where('user_id', '=', userId);
    if (olderThan) q = q.where('created_at', '<', olderThan);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }
}
