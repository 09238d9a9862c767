import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DB, RendersTable, RenderSpec } from '../../db/schema';

export type RenderRow = Selectable<RendersTable>;

/** Renders and the cross-process start gate (`render_slots`). */
export class RenderRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The user's renders that will charge when they are ready (queued or rendering, with a cost). */
  async chargesPending(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('renders')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'rendering'])
      .where('cost', '>', 0)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  byId(id: string) {
    return this.db.selectFrom('renders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKey(userId: string, requestKey: string) {
    return this.db.selectFrom('renders').selectAll().where('user_id', '=', userId).where('request_key', '=', requestKey).executeTakeFirst();
  }

  /**
   * The user's render for `requestKey`, created when there is none. `fresh` says a new row was made
   * (it must be queued). An earlier failed render of the same request is reset to queued.
   */
  async findOrCreate(r: Omit<Insertable<RendersTable>, 'spec'> & { spec: RenderSpec }): Promise<{ row: RenderRow; queue: boolean }> {
    const inserted = await this.db
      .insertInto('renders')
      .values({ ...r, spec: JSON.stringify(r.spec) })
      .onConflict((oc) => oc.columns(['user_id', 'request_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, queue: true };
    const reset = await this.db
      .updateTable('renders')
      .set({ status: 'queued', progress: 0, error_message: null, filename: r.filename, updated_at: new Date() })
      .where('user_id', '=', r.user_id)
      .where('request_key', '=', r.request_key)
      .where('status', '=', 'failed')
      .returningAll()
      .executeTakeFirst();
    if (reset) return { row: reset, queue: true };
    // A reused output outlives the link handed out now (1 h) by a margin.
    const row = await this.db
      .updateTable('renders')
      .set({ filename: r.filename, expires_at: sql<Date>`greatest(expires_at, now() + interval '2 hours')` })
      .where('user_id', '=', r.user_id)
      .where('request_key', '=', r.request_key)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, queue: false };
  }

  update(id: string, values: Partial<Pick<RenderRow, 'status' | 'progress' | 'blob_key' | 'error_message'>>) {
    return this.db
      .updateTable('renders')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Renders whose output expired (and failed ones older than `failedBefore`): removed by the expiry job. */
  expired(now: Date, failedBefore: Date) {
    return this.db
      .selectFrom('renders')
      .select(['id', 'blob_key'])
      .where((eb) => eb.or([eb('expires_at', '<', now), eb.and([eb('status', '=', 'failed'), eb('updated_at', '<', failedBefore)])]))
      .limit(500)
      .execute();
  }

  async remove(ids: string[]) {
    if (!ids.length) return;
    await this.db.deleteFrom('render_slots').where('render_id', 'in', ids).execute();
    await this.db.deleteFrom('renders').where('id', 'in', ids).execute();
  }

  /**
   * Takes a start slot for `renderId` if fewer than `concurrency` renders hold one and fewer than
   * `perSecond` started in the last second, across every process (an advisory lock serialises the
   * check). A slot whose lease ran out (its process died) no longer counts, nor does the render's own.
   */
  tryAcquireSlot(renderId: string, o: { concurrency: number; perSecond: number; leaseSeconds: number }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('clipseek.render_slots'))`.execute(trx);
      await trx
        .deleteFrom('render_slots')
        .where((eb) =>
          eb.or([
            eb('lease_until', '<', sql<Date>`clock_timestamp()`),
            eb.and([eb('released', '=', true), eb('started_at', '<', sql<Date>`clock_timestamp() - interval '5 seconds'`)]),
          ]),
        )
        .execute();
      const r = await trx
        .selectFrom('render_slots')
        .select([
          // Its own slot does not count: a render retried after its process died finds the slot it
          // held still leased (up to SLOT_LEASE_SECONDS); 16 such retries would otherwise each wait
          // on their own dead slots until the leases ran out.
          sql<number>`count(*) filter (where not released and render_id <> ${renderId})::int`.as('running'),
          sql<number>`count(*) filter (where started_at > clock_timestamp() - interval '1 second')::int`.as('recent'),
        ])
        .executeTakeFirstOrThrow();
      if (Number(r.running) >= o.concurrency || Number(r.recent) >= o.perSecond) return false;
      await trx
        .insertInto('render_slots')
        .values({ render_id: renderId, lease_until: sql<Date>`clock_timestamp() + make_interval(secs => ${o.leaseSeconds})` })
        .onConflict((oc) =>
          oc.column('render_id').doUpdateSet({
            started_at: sql<Date>`clock_timestamp()`,
            lease_until: sql<Date>`clock_timestamp() + make_interval(secs => ${o.leaseSeconds})`,
            released: false,
          }),
        )
        .execute();
      return true;
    });
  }

  /** Frees the slot; the row stays a few seconds so it still counts against the starts-per-second limit. */
  releaseSlot(renderId: string) {
    return this.db.updateTable('render_slots').set({ released: true }).where('render_id', '=', renderId).execute();
  }
}
