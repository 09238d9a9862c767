import { canAfford } from '../../../contract';
import { AppError } from '../../errors';
import type { EntryRow, LedgerRepository, NoteRow } from './ledger.repository';

export class InsufficientCreditsError extends AppError {
  constructor(
    readonly balance: number,
    readonly cost: number,
  ) {
    super('payment_required', `Not enough credits: this needs ${cost} credits and you have ${Math.max(0, Math.floor(balance))}.`, {
      balance,
      cost,
    });
  }
}

/** Splits `amount` over notes in the given order; what the notes cannot cover is returned as `uncovered`. */
export function allocate(notes: Array<{ id: string; current: number }>, amount: number) {
  const allocations: Array<{ noteId: string; amount: number }> = [];
  let left = amount;
  for (const n of notes) {
    if (left <= 0) break;
    const take = Math.min(n.current, left);
    if (take > 0) allocations.push({ noteId: n.id, amount: take });
    left -= take;
  }
  return { allocations, uncovered: left };
}

/**
 * The credits ledger: notes (grants with an expiry) and an append-only list of entries. Every change
 * holds the user's account lock and carries an idempotency key, so retries never count twice and
 * concurrent charges never overdraw past the tolerance.
 */
export class LedgerService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  balance(userId: string) {
    return this.repo.balance(userId, this.now());
  }

  /** Grants credits as a new note; an overdraft is paid back first. */
  grant(
    userId: string,
    g: { amount: number; origin: string; key: string; reason: string; expiresAt: Date | null; invoiceId?: string | null },
  ): Promise<EntryRow> {
    if (!Number.isSafeInteger(g.amount) || g.amount < 0)
      throw new AppError('bad_request', 'A grant must be a whole number of credits >= 0.');
    return this.repo.withAccount(userId, async (acct) => {
      const existing = await acct.entryByKey(g.key);
      if (existing) return existing;
      const repaid = Math.min(acct.debt, g.amount);
      const note = await acct.insertNote({
        origin: g.origin,
        original: g.amount,
        current: g.amount - repaid,
        expiresAt: g.expiresAt,
        invoiceId: g.invoiceId ?? null,
      });
      if (repaid) await acct.setDebt(acct.debt - repaid);
      return acct.insertEntry({ kind: 'grant', amount: g.amount, key: g.key, reason: g.reason, allocations: [], noteId: note.id });
    });
  }

  /** Charges credits from the soonest-expiring notes; refused when it would pass the tolerance. */
  charge(userId: string, c: { amount: number; key: string; reason: string }): Promise<EntryRow> {
    if (!Number.isSafeInteger(c.amount) || c.amount < 0)
      throw new AppError('bad_request', 'A charge must be a whole number of credits >= 0.');
    return this.repo.withAccount(userId, async (acct) => {
      const existing = await acct.entryByKey(c.key);
      if (existing) return existing;
      const notes: NoteRow[] = await acct.liveNotes(this.now());
      const balance = notes.reduce((s, n) => s + Number(n.current_amount), 0) - acct.debt;
      if (!canAfford(balance, c.amount)) throw new InsufficientCreditsError(balance, c.amount);
      const { allocations, uncovered } = allocate(
        notes.map((n) => ({ id: n.id, current: Number(n.current_amount) })),
        c.amount,
      );
      for (const a of allocations) {
        const n = notes.find((x) => x.id === a.noteId)!;
        await acct.setNoteAmount(n.id, Number(n.current_amount) - a.amount);
      }
      if (uncovered) await acct.setDebt(acct.debt + uncovered);
      return acct.insertEntry({ kind: 'charge', amount: c.amount, key: c.key, reason: c.reason, allocations, noteId: null });
    });
  }
}
