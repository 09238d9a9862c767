import { describe, expect, it } from 'vitest';
import { MSG_LIB } from '../../../contract';
import type { LibraryRow } from './library.repository';
import type { MediaRow } from './media.repository';
import { Access } from './access';

const lib = (id: string, userId: string, flags: Partial<LibraryRow> = {}) =>
  ({ id, user_id: userId, is_read_only: false, is_demo: false, ...flags }) as LibraryRow;
const LIBS = [lib('mine', 'ann'), lib('demo', 'ann', { is_demo: true, is_read_only: true }), lib('theirs', 'bob')];
const MEDIA = [
  { id: 'm1', library_id: 'mine', status: 'completed' },
  { id: 'm2', library_id: 'mine', status: 'empty' },
  { id: 'm3', library_id: 'theirs', status: 'completed' },
] as MediaRow[];

const access = new Access({
  libraries: {
    byIdForUser: async (id: string, userId: string) => LIBS.find((l) => l.id === id && l.user_id === userId),
    listByUser: async (userId: string) => LIBS.filter((l) => l.user_id === userId),
  } as never,
  media: { inLibrary: async (libraryId: string, id: string) => MEDIA.find((m) => m.id === id && m.library_id === libraryId) } as never,
});

describe('Access', () => {
  it("gives a user's own library, and answers another's as not found (never forbidden)", async () => {
    expect((await access.library('ann', 'mine')).id).toBe('mine');
    await expect(access.library('ann', 'theirs')).rejects.toMatchObject({ code: 'not_found', message: MSG_LIB.libraryNotFound });
    await expect(access.library('bob', 'mine', 'write')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses writes to read-only libraries (the demo) but lets them be read', async () => {
    expect((await access.library('ann', 'demo')).id).toBe('demo');
    await expect(access.library('ann', 'demo', 'write')).rejects.toMatchObject({ code: 'forbidden', message: MSG_LIB.readOnlyLibrary });
    await expect(access.media('ann', 'demo', 'm1', { access: 'write' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('gives media of the library only, and empty ones (uploads without a file) only when asked', async () => {
    expect((await access.media('ann', 'mine', 'm1')).id).toBe('m1');
    await expect(access.media('ann', 'mine', 'm3')).rejects.toMatchObject({ code: 'not_found', message: MSG_LIB.mediaNotFound });
    await expect(access.media('ann', 'theirs', 'm3')).rejects.toMatchObject({ code: 'not_found', message: MSG_LIB.libraryNotFound });
    await expect(access.media('ann', 'mine', 'm2')).rejects.toMatchObject({ code: 'not_found' });
    expect((await access.media('ann', 'mine', 'm2', { includeEmpty: true })).id).toBe('m2');
  });

  it('checks several libraries at once: all must be the user’s', async () => {
    expect(await access.libraries('ann', ['mine', 'demo'])).toEqual(['mine', 'demo']);
    await expect(access.libraries('ann', ['mine', 'theirs'])).rejects.toMatchObject({ code: 'not_found' });
  });

  it("checks them against the session's libraries when it holds them, without reading the user's again", async () => {
    const reads: string[] = [];
    const counting = new Access({
      libraries: {
        listByUser: async (userId: string) => (reads.push(userId), LIBS.filter((l) => l.user_id === userId)),
      } as never,
      media: {} as never,
    });
    expect(await counting.libraries('ann', ['mine'], ['mine', 'demo'])).toEqual(['mine']);
    await expect(counting.libraries('ann', ['theirs'], ['mine', 'demo'])).rejects.toMatchObject({ code: 'not_found' });
    // A library the session does not hold is not found, even one the user owns by now.
    await expect(counting.libraries('ann', ['demo'], ['mine'])).rejects.toMatchObject({ code: 'not_found' });
    expect(reads).toEqual([]);
    expect(await counting.libraries('ann', ['demo'])).toEqual(['demo']);
    expect(reads).toEqual(['ann']);
  });
});
