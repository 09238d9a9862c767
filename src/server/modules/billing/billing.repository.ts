import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, InvoicesTable, SubscriptionsTable } from '../../db/schema';

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;

export class BillingRepository {
  constructor(private readonly db: Kysely<DB>) {}

  subscription(userId: string) {
    return this.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  subscriptionByRef(ref: string) {
    return this.db.selectFrom('subscriptions').selectAll().where('provider_ref', '=', ref).executeTakeFirst();
  }

  upsertSubscription(
    row: Omit<SubscriptionRow, 'created_at' | 'updated_at' | 'cancel_at_period_end'> & { cancel_at_period_end?: boolean },
  ) {
    return this.db
      .insertInto('subscriptions')
      .values({ ...row, cancel_at_period_end: row.cancel_at_period_end ?? false })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          product_id: row.product_id,
          pending_product_id: row.pending_product_id,
          status: row.status,
          cancel_at_period_end: row.cancel_at_period_end ?? false,
          term_start: row.term_start,
          term_end: row.term_end,
          provider: row.provider,
          provider_ref: row.provider_ref,
          updated_at: new Date(),
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  updateSubscription(userId: string, patch: Updateable<SubscriptionsTable>, expectTermEnd?: Date) {
    let q = this.db
      .updateTable('subscriptions')
      .set({ ...patch, updated_at: new Date() })
      .where('user_id', '=', userId);
    // Renewal guards on the term it saw, so two runs cannot both advance it.
    if (expectTermEnd) q = q.where('term_end', '=', expectTermEnd);
    return q.returningAll().executeTakeFirst();
  }

  dueSubscriptions(now: Date) {
    return this.db.selectFrom('subscriptions').selectAll().where('status', '=', 'active').where('term_end', '<=', now).execute();
  }

  /** Inserts an invoice once per idempotency key; returns the existing one on a repeat. */
  async invoice(values: Omit<InvoiceRow, 'id' | 'number' | 'created_at'>): Promise<InvoiceRow> {
    const inserted = await this.db
      .insertInto('invoices')
      .values(values)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    return (
      inserted ?? this.db.selectFrom('invoices').selectAll().where('idempotency_key', '=', values.idempotency_key).executeTakeFirstOrThrow()
    );
  }

  invoiceById(id: string) {
    return this.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  }

  invoicesOf(userId: string) {
    return this.db.selectFrom('invoices').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
  }

  /** Storage hours bought with top-ups (kept, they do not expire). */
  async topUpStorageHours(userId: string) {
    const r = await this.db
      .selectFrom('invoices')
      .select(sql<number>`coalesce(sum(storage_hours * quantity), 0)::float8`.as('h'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'top-up')
      .executeTakeFirst();
    return Number(r?.h ?? 0);
  }

  /** Records a provider event; false if it was already applied. */
  async claimEvent(id: string, type: string) {
    const r = await this.db
      .insertInto('billing_events')
      .values({ id, type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return !!r;
  }

  forgetEvent(id: string) {
    return this.db.deleteFrom('billing_events').where('id', '=', id).execute();
  }

  setStripeCustomer(userId: string, customerId: string) {
    return this.db.updateTable('users').set({ stripe_customer_id: customerId }).where('id', '=', userId).execute();
  }
}
