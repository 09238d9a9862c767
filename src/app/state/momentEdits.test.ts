import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HANDLE_MIN_SECONDS, MSG_MOMENT, type Moment } from '../../contract';
import { MemoryStorage } from './stateTestKit';

const storage = new MemoryStorage();
vi.stubGlobal('localStorage', storage);
vi.spyOn(console, 'warn').mockImplementation(() => undefined);
const { effectiveMoment, effectiveRange, loadMomentEdits, momentEdits, rangeProblem, resetMomentRange, updateMomentRange } =
  await import('./momentEdits');
const { toasts } = await import('./toasts');
const { session } = await import('./session');

const moment: Moment = { id: 'm_a', mediaId: 'a', libraryId: 'l', startTime: 2, endTime: 6, text: '', score: 1 };
const failures = () => toasts.items.filter((t) => t.message === MSG_MOMENT.failedToUpdate && t.tone === 'error').length;

beforeEach(() => {
  storage.data.clear();
  storage.refuse = false;
  toasts.items = [];
  loadMomentEdits();
});

describe('moment edits', () => {
  it('trims a moment: the effective range changes, the original is kept beside it, and it is stored', () => {
    expect(effectiveRange(moment)).toEqual({ startTime: 2, endTime: 6 });
    expect(updateMomentRange(moment, { startTime: 3, endTime: 4.5 }, 10)).toBe(true);
    expect(effectiveRange(moment)).toEqual({ startTime: 3, endTime: 4.5 });
    expect(effectiveMoment(moment)).toMatchObject({ id: 'm_a', startTime: 3, endTime: 4.5 });
    expect(momentEdits.byMoment['m_a']).toEqual({
      originalTimestamps: { startTime: 2, endTime: 6 },
      newTimestamps: { startTime: 3, endTime: 4.5 },
    });
    // A reload reads it back.
    momentEdits.byMoment = {};
    loadMomentEdits();
    expect(effectiveRange(moment)).toEqual({ startTime: 3, endTime: 4.5 });
    expect(failures()).toBe(0);
  });

  it('rejects invalid ranges with the toast and keeps the old value', () => {
    updateMomentRange(moment, { startTime: 3, endTime: 5 }, 10);
    const bad = [
      { startTime: 5, endTime: 3 },
      { startTime: 4, endTime: 4 },
      { startTime: 4, endTime: 4 + HANDLE_MIN_SECONDS / 2 },
      { startTime: -1, endTime: 3 },
      { startTime: 8, endTime: 11 },
      { startTime: Number.NaN, endTime: 3 },
    ];
    const attempts: Array<[{ startTime: number; endTime: number }, number]> = [
      ...bad.map((r) => [r, 10] as [typeof r, number]),
      [{ startTime: 1, endTime: 2 }, Number.NaN],
    ];
    for (const [r, duration] of attempts) {
      toasts.items = [];
      expect(updateMomentRange(moment, r, duration), JSON.stringify(r)).toBe(false);
      expect(failures(), JSON.stringify(r)).toBe(1);
    }
    expect(effectiveRange(moment)).toEqual({ startTime: 3, endTime: 5 });
  });

  it('accepts exactly the minimum length and the whole media', () => {
    expect(rangeProblem({ startTime: 1, endTime: 1 + HANDLE_MIN_SECONDS }, 10)).toBeNull();
    expect(rangeProblem({ startTime: 0, endTime: 10 }, 10)).toBeNull();
  });

  it('takes the edit when storage refuses the write (the account keeps it)', () => {
    updateMomentRange(moment, { startTime: 3, endTime: 5 }, 10);
    storage.refuse = true;
    expect(updateMomentRange(moment, { startTime: 1, endTime: 2 }, 10)).toBe(true);
    expect(failures()).toBe(0);
    expect(effectiveRange(moment)).toEqual({ startTime: 1, endTime: 2 });
    expect(resetMomentRange(moment)).toBe(true);
    expect(effectiveRange(moment)).toEqual({ startTime: 2, endTime: 6 });
  });

  it('resets, and a trim back to the original range drops the trim (a reset the account is told of)', () => {
    updateMomentRange(moment, { startTime: 3, endTime: 5 }, 10);
    expect(resetMomentRange(moment)).toBe(true);
    expect(effectiveRange(moment)).toEqual({ startTime: 2, endTime: 6 });
    updateMomentRange(moment, { startTime: 3, endTime: 5 }, 10);
    updateMomentRange(moment, { startTime: 2, endTime: 6 }, 10);
    expect(momentEdits.byMoment).toEqual({});
    // kept until the account has it: the reset of m_a, one edit
    const kept = JSON.parse(storage.data.get('clipseek.momentTrims.anonymous')!) as {
      pending: { momentId: string; newTimestamps: null }[];
    };
    expect(kept.pending).toEqual([expect.objectContaining({ momentId: 'm_a', newTimestamps: null })]);
  });

  it('sends the trims kept only in this browser before (issue 37) to the account, dated before any other edit', () => {
    storage.data.set(
      'clipseek.momentEdits.anonymous',
      JSON.stringify({ m_a: { originalTimestamps: { startTime: 2, endTime: 6 }, newTimestamps: { startTime: 3, endTime: 4 } } }),
    );
    loadMomentEdits();
    expect(effectiveRange(moment)).toEqual({ startTime: 3, endTime: 4 });
    expect(storage.data.has('clipseek.momentEdits.anonymous')).toBe(false);
    const kept = JSON.parse(storage.data.get('clipseek.momentTrims.anonymous')!) as { pending: { editedAt: string }[] };
    expect(kept.pending.map((e) => e.editedAt)).toEqual([new Date(0).toISOString()]);
  });

  it('keeps each account its own trims', () => {
    session.claims = { sub: 'user-1' } as typeof session.claims;
    updateMomentRange(moment, { startTime: 3, endTime: 5 }, 10);
    session.claims = { sub: 'user-2' } as typeof session.claims;
    loadMomentEdits();
    expect(effectiveRange(moment)).toEqual({ startTime: 2, endTime: 6 });
    session.claims = { sub: 'user-1' } as typeof session.claims;
    loadMomentEdits();
    expect(effectiveRange(moment)).toEqual({ startTime: 3, endTime: 5 });
    session.claims = null;
  });

  it('ignores stored garbage', () => {
    storage.data.set('clipseek.momentEdits.anonymous', JSON.stringify({ m_a: { newTimestamps: { startTime: 5, endTime: 1 } }, m_b: 3 }));
    loadMomentEdits();
    expect(momentEdits.byMoment).toEqual({});
    storage.data.set('clipseek.momentEdits.anonymous', '{not json');
    loadMomentEdits();
    expect(momentEdits.byMoment).toEqual({});
    storage.data.set(
      'clipseek.momentTrims.anonymous',
      JSON.stringify({ server: [{ momentId: 'm_a', newTimestamps: { startTime: 5, endTime: 1 } }], pending: [{ momentId: 3 }] }),
    );
    loadMomentEdits();
    expect(momentEdits.byMoment).toEqual({});
    storage.data.set('clipseek.momentTrims.anonymous', '{not json');
    loadMomentEdits();
    expect(momentEdits.byMoment).toEqual({});
  });
});
