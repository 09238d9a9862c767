import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  FOLDER_NAME_MAX,
  MSG,
  MSG_FOLDER,
  MSG_LIB,
  type Folder,
  type FolderDeleteAnswer,
  type FolderResponse,
  type Library,
  type Media,
  type RetryAnswer,
  type User,
} from '../../src/contract';
import { startTestServer, uniqueEmail } from './support/harness';
import { makeVideo, randomFile, startUpload, uploadFile, verifiedUser, waitForStatus } from './support/upload';

/** The folder calls: create, read (with breadcrumb and contents), rename, delete (refused when not empty unless recursive). */

let t: Awaited<ReturnType<typeof startTestServer>>;
let a: { token: string; userId: string };
let b: { token: string; userId: string };
let lib: Library;

beforeAll(async () => {
  t = await startTestServer();
  a = await verifiedUser(t, 'folders');
  b = await verifiedUser(t, 'intruder');
  lib = (await t.api<Library>('POST', API.libraries, { token: a.token, body: { name: 'Trips', settings: { v1: {} } } })).body.data!;
});
afterAll(async () => {
  await t?.close();
});

const create = (name: unknown, parentId?: string, token = a.token, libraryId = lib._id) =>
  t.api<Folder>('POST', API.folderCreate(libraryId), { token, body: parentId ? { name, parentId } : { name } });
const read = async (folderId?: string) =>
  (await t.api<FolderResponse>('GET', API.folder(lib._id, folderId), { token: a.token })).body.data!;

describe('folders', () => {
  it(
    'creates folders in the root and inside others; a read lists them by creation with what they hold and the way back',
    { timeout: 240_000 },
    async () => {
      const beach = await create('  Beach  ');
      expect(beach.status).toBe(201);
      expect(beach.body.data).toMatchObject({ name: 'Beach', parentId: lib.rootFolderId, contents: { folders: 0, files: 0 } });
      const alps = (await create('Alps')).body.data!;
      const day1 = (await create('Day 1', alps._id)).body.data!;
      expect(day1.parentId).toBe(alps._id);

      // an upload into a subfolder lands there, not in the root
      const fin = await uploadFile(t, a.token, lib._id, day1._id, 'summit.mp4', makeVideo(1));
      expect(fin.status).toBe(200);
      // the first indexing of this server also loads the models
      const summit = await waitForStatus(t, a.token, lib._id, fin.body.data!._id, ['completed'], 180_000);
      expect(summit.folderId).toBe(day1._id);

      const root = await read();
      expect(root.folder._id).toBe(lib.rootFolderId);
      expect(root.ancestors).toEqual([]);
      expect(root.subFolders.map((f) => f.name)).toEqual(['Beach', 'Alps']);
      expect(root.subFolders.map((f) => f.contents)).toEqual([
        { folders: 0, files: 0 },
        { folders: 1, files: 1 },
      ]);
      expect(root.files).toEqual([]);

      const inner = await read(day1._id);
      expect(inner.folder).toMatchObject({ name: 'Day 1', parentId: alps._id });
      expect(inner.ancestors.map((f) => f._id)).toEqual([lib.rootFolderId, alps._id]);
      expect(inner.files.map((m) => m.metadata.filename)).toEqual(['summit.mp4']);
      // the library's stats count what its folders hold
      expect((await t.api<Library>('GET', API.library(lib._id), { token: a.token })).body.data!.stats.count).toBe(1);
    },
  );

  it('validates names and places with messages that say what is wrong', async () => {
    const cases: Array<[unknown, string | undefined, number, string | RegExp]> = [
      ['   ', undefined, 400, MSG_FOLDER.nameEmpty],
      ['x'.repeat(FOLDER_NAME_MAX + 1), undefined, 400, MSG_FOLDER.nameTooLong],
      // Refused at the route by the input guard, which names the field and the character.
      ['tab\there', undefined, 400, MSG.controlCharacter('name', 'U+0009')],
      ['beach', undefined, 409, MSG_FOLDER.nameTaken('beach')],
      ['Fine', '00000000-0000-4000-8000-000000000000', 404, MSG_FOLDER.notFound],
      ['Fine', 'not-a-folder', 400, /parentId must match format "uuid"/],
    ];
    for (const [name, parentId, status, message] of cases) {
      const r = await create(name, parentId);
      expect(r.status, String(name)).toBe(status);
      expect(r.body.error!.message, String(name)).toMatch(message);
    }
    const missing = await t.api('POST', API.folderCreate(lib._id), { token: a.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error!.message).toBe('name is required');
    // the same name is fine under another parent
    const alps = (await read()).subFolders.find((f) => f.name === 'Alps')!;
    expect((await create('Beach', alps._id)).status).toBe(201);
  });

  it('renames a folder, refusing a sibling name and the root', async () => {
    const root = await read();
    const beach = root.subFolders.find((f) => f.name === 'Beach')!;
    const renamed = await t.api<Folder>('PATCH', API.folder(lib._id, beach._id), { token: a.token, body: { name: ' Sea ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ _id: beach._id, name: 'Sea' });
    expect((await read()).subFolders.map((f) => f.name)).toEqual(['Sea', 'Alps']);
    const clash = await t.api('PATCH', API.folder(lib._id, beach._id), { token: a.token, body: { name: 'ALPS' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error!.message).toBe(MSG_FOLDER.nameTaken('ALPS'));
    expect((await t.api('PATCH', API.folder(lib._id, beach._id), { token: a.token, body: { name: '' } })).body.error!.message).toBe(
      MSG_FOLDER.nameEmpty,
    );
    const rootRename = await t.api('PATCH', API.folder(lib._id, lib.rootFolderId), { token: a.token, body: { name: 'Top' } });
    expect(rootRename.status).toBe(403);
    expect(rootRename.body.error!.message).toBe(MSG_FOLDER.rootImmutable);
  });

  it('deletes an empty folder at once, and a folder that holds anything only with recursive, everything in it going too', async () => {
    const root = await read();
    const sea = root.subFolders.find((f) => f.name === 'Sea')!;
    expect((await t.api<FolderDeleteAnswer>('DELETE', API.folder(lib._id, sea._id), { token: a.token })).body.data).toEqual({
      ok: true,
      deletedFolders: 1,
      deletedMedia: 0,
      freedBytes: 0,
    });

    const alps = root.subFolders.find((f) => f.name === 'Alps')!;
    const summit = (await read((await read(alps._id)).subFolders.find((f) => f.name === 'Day 1')!._id)).files[0]!;
    expect(await t.server.blobs.exists(`media/${a.userId}/${summit._id}/original.mp4`)).toBe(true);
    const refused = await t.api('DELETE', API.folder(lib._id, alps._id), { token: a.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.message).toBe(MSG_FOLDER.notEmpty);
    expect((await read()).subFolders.map((f) => f.name)).toEqual(['Alps']);
    expect((await t.api('DELETE', `${API.folder(lib._id, alps._id)}?recursive=maybe`, { token: a.token })).status).toBe(400);

    const done = await t.api<FolderDeleteAnswer>('DELETE', `${API.folder(lib._id, alps._id)}?recursive=true`, { token: a.token });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ ok: true, deletedFolders: 3, deletedMedia: 1 });
    expect(done.body.data!.freedBytes).toBeGreaterThan(0);
    expect((await read()).subFolders).toEqual([]);
    expect((await t.api('GET', API.media(lib._id, summit._id), { token: a.token })).status).toBe(404);
    expect((await t.api('GET', API.folder(lib._id, alps._id), { token: a.token })).status).toBe(404);
    expect((await t.api<Library>('GET', API.library(lib._id), { token: a.token })).body.data!.stats.count).toBe(0);
    // the original's bytes are gone from the store
    expect(await t.server.blobs.exists(`media/${a.userId}/${summit._id}/original.mp4`)).toBe(false);

    const rootDelete = await t.api('DELETE', `${API.folder(lib._id, lib.rootFolderId)}?recursive=true`, { token: a.token });
    expect(rootDelete.status).toBe(403);
    expect(rootDelete.body.error!.message).toBe(MSG_FOLDER.rootImmutable);
  });

  it('keeps folders to their owner, off read-only libraries, and away from unverified accounts', async () => {
    const mine = (await create('Private')).body.data!;
    expect((await create('Stolen', undefined, b.token)).status).toBe(404);
    expect((await t.api('GET', API.folder(lib._id, mine._id), { token: b.token })).status).toBe(404);
    expect((await t.api('PATCH', API.folder(lib._id, mine._id), { token: b.token, body: { name: 'x' } })).status).toBe(404);
    expect((await t.api('DELETE', API.folder(lib._id, mine._id), { token: b.token })).status).toBe(404);
    // bob's library with alice's folder as the parent
    const bLib = (await t.api<Library[]>('GET', API.libraries, { token: b.token })).body.data!.find((l) => l.isDefault)!;
    expect((await create('Sneaky', mine._id, b.token, bLib._id)).status).toBe(404);
    expect((await startUpload(t, b.token, bLib._id, mine._id, 'x.mp4', randomFile(100))).status).toBe(404);

    const demo = (await t.api<Library[]>('GET', API.libraries, { token: a.token })).body.data!.find((l) => l.isDemo)!;
    const ro = await create('Mine', undefined, a.token, demo._id);
    expect(ro.status).toBe(403);
    expect(ro.body.error!.message).toBe(MSG_LIB.readOnlyLibrary);

    const reg = await t.api<User>('POST', API.register, { body: { email: uniqueEmail('unverified'), password: 'unverified-1' } });
    const uLib = (await t.api<Library[]>('GET', API.libraries, { token: reg.body.token! })).body.data!.find((l) => l.isDefault)!;
    const u = await create('Early', undefined, reg.body.token!, uLib._id);
    expect(u.status).toBe(403);
    expect(u.body.error!.message).toBe(MSG.verifyToAdd);
  });

  it('retrying a failed media puts it back to processing at once', { timeout: 240_000 }, async () => {
    const fin = await uploadFile(t, a.token, lib._id, lib.rootFolderId, 'again.mp4', makeVideo(1));
    const m = await waitForStatus(t, a.token, lib._id, fin.body.data!._id, ['completed'], 180_000);
    // as the indexer leaves a media whose last stages failed: those are not done
    await t.server.database.db
      .updateTable('media')
      .set({
        status: 'errored',
        error_message: 'Processing failed at the descriptions stage: boom',
        ingest: sql`jsonb_set(ingest, '{done}', (ingest->'done') - 'descriptions' - 'complete')` as never,
      })
      .where('id', '=', m._id)
      .execute();
    const retry = await t.api<RetryAnswer>('POST', API.mediaRetry(lib._id, m._id), { token: a.token });
    expect(retry.body.data!.error).toBeNull();
    expect(retry.body.data!.media).toMatchObject({ status: 'processing', error: null });
    const back: Media = await waitForStatus(t, a.token, lib._id, m._id, ['completed'], 180_000);
    expect(back.status).toBe('completed');
  });
});
