import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, momentId, type MomentTrim, type MomentTrimEdit } from '../../src/contract';
import { MomentTrimsRepository } from '../../src/server/modules/accounts/momentTrims.repository';
import { MomentTrimsService } from '../../src/server/modules/accounts/momentTrims.service';
import { startTestServer, type Format } from './support/harness';
import { verifiedUser } from './support/upload';

// Moment trims kept with the account (issue 37, item 9): what one device sends, another reads; each
// moment keeps the edit made last (by edit time), so a device that was offline merges its edits with
// what others did meanwhile; a reset is an edit too, and nobody reads another account's trims.
let t: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  t = await startTestServer();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const media = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const [a, b, c] = [momentId(media, 0, 4), momentId(media, 4, 8), momentId(media, 8, 12)];
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const edit = (id: string, range: [number, number] | null, editedAt: string, original: [number, number] = [0, 4]): MomentTrimEdit => ({
  momentId: id,
  originalTimestamps: { startTime: original[0], endTime: original[1] },
  newTimestamps: range && { startTime: range[0], endTime: range[1] },
  editedAt,
});
const ranges = (trims: MomentTrim[]) =>
  Object.fromEntries(trims.map((x) => [x.momentId, [x.newTimestamps.startTime, x.newTimestamps.endTime]]));

describe.each<Format>(['msgpack', 'json'])('moment trims over %s', (format) => {
  it('keeps the later edit of each moment, whichever device sends it first', async () => {
    const { token } = await verifiedUser(t, `trims-${format}`);
    const send = (edits: MomentTrimEdit[]) => t.api<MomentTrim[]>('POST', API.meTrims, { format, token, body: { edits } });
    const read = async () => (await t.api<MomentTrim[]>('GET', API.meTrims, { format, token })).body.data!;
    expect(await read()).toEqual([]);

    // The desktop trims a at -60 s and b at -50 s.
    const desk = await send([edit(a, [1, 3], at(-60_000)), edit(b, [4.5, 6], at(-50_000), [4, 8])]);
    expect(desk.status).toBe(200);
    expect(ranges(desk.body.data!)).toEqual({ [a]: [1, 3], [b]: [4.5, 6] });

    // The phone, offline since -90 s, comes back with: a trimmed at -70 s (older than the desktop's:
    // loses), b trimmed at -10 s (newer: wins), c trimmed at -20 s (new moment).
    const phone = await send([
      edit(a, [0.5, 2], at(-70_000)),
      edit(b, [5, 7.5], at(-10_000), [4, 8]),
      edit(c, [9, 11], at(-20_000), [8, 12]),
    ]);
    expect(ranges(phone.body.data!)).toEqual({ [a]: [1, 3], [b]: [5, 7.5], [c]: [9, 11] });
    const trimmed = phone.body.data!.find((x) => x.momentId === b)!;
    expect(trimmed.originalTimestamps).toEqual({ startTime: 4, endTime: 8 });

    // A reset is an edit: it removes the trim, and an older edit arriving later does not bring it back.
    await send([edit(c, null, at(-5_000), [8, 12])]);
    expect(Object.keys(ranges(await read()))).toEqual(expect.not.arrayContaining([c]));
    await send([edit(c, [8.5, 10], at(-15_000), [8, 12])]);
    expect(ranges(await read())[c]).toBeUndefined();
    // A newer one does.
    await send([edit(c, [8.5, 10], at(-1_000), [8, 12])]);
    expect(ranges(await read())[c]).toEqual([8.5, 10]);

    // An edit time ahead of the server's clock counts as now: a later real edit still wins.
    await send([edit(a, [2, 3.5], at(24 * 3600_000))]);
    expect(Date.parse((await read()).find((x) => x.momentId === a)!.editedAt)).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 20));
    await send([edit(a, [1.5, 2.5], at(0))]);
    expect(ranges(await read())[a]).toEqual([1.5, 2.5]);
  });

  it('refuses an edit that is no range, naming it, and applies none of the call', async () => {
    const { token } = await verifiedUser(t, `trims-bad-${format}`);
    const send = (edits: unknown) => t.api<MomentTrim[]>('POST', API.meTrims, { format, token, body: { edits } });
    const cases: [unknown, RegExp][] = [
      [[edit(a, [1, 3], at(0)), edit(b, [3, 1], at(0), [4, 8])], /^edits\/1: newTimestamps must start before it ends$/],
      [[edit(a, [1, 1.05], at(0))], /^edits\/0: newTimestamps must be at least 0.1 s long$/],
      [[{ ...edit(a, [1, 3], at(0)), momentId: 'not-a-moment' }], /momentId/],
      [[{ ...edit(a, [1, 3], at(0)), editedAt: 'yesterday' }], /editedAt/],
      [[edit(a, [-1, 3], at(0))], /startTime/],
    ];
    for (const [edits, message] of cases) {
      const r = await send(edits);
      expect(r.status, JSON.stringify(edits)).toBe(400);
      expect(r.body.error?.message).toMatch(message);
    }
    expect((await t.api<MomentTrim[]>('GET', API.meTrims, { format, token })).body.data).toEqual([]);
    expect((await send(Array.from({ length: 201 }, () => edit(a, [1, 3], at(0))))).status).toBe(400);
  });

  it("keeps each account's trims to itself", async () => {
    const one = await verifiedUser(t, `trims-one-${format}`);
    const two = await verifiedUser(t, `trims-two-${format}`);
    await t.api('POST', API.meTrims, { format, token: one.token, body: { edits: [edit(a, [1, 3], at(0))] } });
    expect((await t.api<MomentTrim[]>('GET', API.meTrims, { format, token: two.token })).body.data).toEqual([]);
    expect((await t.api('GET', API.meTrims, { format })).status).toBe(401);
  });
});

describe('moment trims kept per account', () => {
  it('keeps the trims edited last (resets included) and drops the oldest, for that account only', async () => {
    const one = await verifiedUser(t, 'trims-kept-one');
    const two = await verifiedUser(t, 'trims-kept-two');
    const repo = new MomentTrimsRepository(t.server.database.db);
    const service = new MomentTrimsService(repo, () => new Date(), 2);
    await service.apply(two.userId, [edit(a, [1, 3], at(-5_000))]);
    // Three moments edited at -3 s, -2 s and -1 s (b a reset): the oldest (a) goes.
    const kept = await service.apply(one.userId, [
      edit(a, [1, 3], at(-3_000)),
      edit(b, null, at(-2_000), [4, 8]),
      edit(c, [9, 11], at(-1_000), [8, 12]),
    ]);
    expect(ranges(kept)).toEqual({ [c]: [9, 11] });
    // (b's reset is still held: an older offline edit of b does not bring its trim back.)
    expect(ranges(await service.apply(one.userId, [edit(b, [5, 7], at(-4_000), [4, 8])]))).toEqual({ [c]: [9, 11] });
    // The other account's trim is untouched.
    expect(ranges(await service.list(two.userId))).toEqual({ [a]: [1, 3] });
  });
});
