import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, PURCHASE_TOLERANCE, type User } from '../../src/contract';
import { LedgerRepository } from '../../src/server/modules/billing/ledger.repository';
import { InsufficientCreditsError, LedgerService } from '../../src/server/modules/billing/ledger.service';
import { startTestServer, uniqueEmail } from './support/harness';

let t: Awaited<ReturnType<typeof startTestServer>>;
let repo: LedgerRepository;
const day = 86_400_000;
const T0 = new Date('2026-12-01T00:00:00Z').getTime();

beforeAll(async () => {
  t = await startTestServer({ SIGNUP_BONUS_CREDITS: '0' }); // these tests grant their own notes
  repo = new LedgerRepository(t.server.database.db);
});
afterAll(async () => {
  await t?.close();
});

async function newUser() {
  const r = await t.api<User>('POST', API.register, { body: { email: uniqueEmail('ledger'), password: 'ledger-password' } });
  return r.body.data!._id;
}
const notesOf = async (userId: string) =>
  Object.fromEntries((await repo.notes(userId)).map((n) => [n.origin + ':' + Number(n.original_amount), Number(n.current_amount)]));

describe('credits ledger', () => {
  it('charges the soonest-expiring notes first, across several notes', async () => {
    const clock = { now: T0 };
    const ledger = new LedgerService(repo, () => new Date(clock.now));
    const u = await newUser();
    await ledger.grant(u, { amount: 1000, origin: 'top-up', key: 'g1', reason: 'later', expiresAt: new Date(T0 + 30 * day) });
    await ledger.grant(u, { amount: 300, origin: 'signup', key: 'g2', reason: 'soon', expiresAt: new Date(T0 + 2 * day) });
    await ledger.grant(u, { amount: 500, origin: 'adjustment', key: 'g3', reason: 'never expires', expiresAt: null });
    expect(await ledger.balance(u)).toBe(1800);
    const c = await ledger.charge(u, { amount: 700, key: 'c1', reason: 'ingest' });
    expect(c.allocations.map((a) => a.amount)).toEqual([300, 400]);
    expect(await notesOf(u)).toEqual({ 'signup:300': 0, 'top-up:1000': 600, 'adjustment:500': 500 });
    await ledger.charge(u, { amount: 800, key: 'c2', reason: 'ingest' });
    expect(await notesOf(u)).toEqual({ 'signup:300': 0, 'top-up:1000': 0, 'adjustment:500': 300 });
    expect(await ledger.balance(u)).toBe(300);
  });

  it('stops counting a note at its expiry instant', async () => {
    const clock = { now: T0 };
    const ledger = new LedgerService(repo, () => new Date(clock.now));
    const u = await newUser();
    await ledger.grant(u, { amount: 1000, origin: 'signup', key: 'g', reason: 'bonus', expiresAt: new Date(T0 + day) });
    clock.now = T0 + day - 1;
    expect(await ledger.balance(u)).toBe(1000);
    clock.now = T0 + day;
    expect(await ledger.balance(u)).toBe(0);
    // the expired note is not charged: only the tolerance is left
    await expect(ledger.charge(u, { amount: 6000, key: 'c', reason: 'too much' })).rejects.toBeInstanceOf(InsufficientCreditsError);
    const c = await ledger.charge(u, { amount: 100, key: 'c2', reason: 'small' });
    expect(c.allocations).toEqual([]);
    expect(await ledger.balance(u)).toBe(-100);
  });

  it('charges once per idempotency key, even when retried', async () => {
    const ledger = new LedgerService(repo, () => new Date(T0));
    const u = await newUser();
    await ledger.grant(u, { amount: 10_000, origin: 'top-up', key: 'g', reason: 'buy', expiresAt: null });
    const first = await ledger.charge(u, { amount: 2500, key: 'ingest:media-1', reason: 'ingest' });
    const again = await ledger.charge(u, { amount: 2500, key: 'ingest:media-1', reason: 'ingest' });
    expect(again.id).toBe(first.id);
    expect(await ledger.balance(u)).toBe(7500);
    const g2 = await ledger.grant(u, { amount: 10_000, origin: 'top-up', key: 'g', reason: 'buy', expiresAt: null });
    expect(await ledger.balance(u)).toBe(7500);
    expect(g2.kind).toBe('grant');
  });

  it('never overdraws past the tolerance under 20 concurrent charges', async () => {
    const ledger = new LedgerService(repo, () => new Date(T0));
    const u = await newUser();
    await ledger.grant(u, { amount: 10_000, origin: 'top-up', key: 'g', reason: 'buy', expiresAt: null });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => ledger.charge(u, { amount: 1000, key: `c${i}`, reason: 'race' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(15); // 10,000 + 5,000 of tolerance
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientCreditsError)).toBe(true);
    expect(await ledger.balance(u)).toBe(PURCHASE_TOLERANCE);
    // a later grant pays the overdraft back first
    await ledger.grant(u, { amount: 8000, origin: 'top-up', key: 'g2', reason: 'buy', expiresAt: null });
    expect(await ledger.balance(u)).toBe(3000);
    const entries = await repo.entries(u, 100);
    expect(entries.filter((e) => e.kind === 'charge')).toHaveLength(15);
  });
});
