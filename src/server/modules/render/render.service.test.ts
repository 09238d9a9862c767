import { describe, expect, it } from 'vitest';
import { MSG_RENDER, RENDER_MAX_CLIPS } from '../../../contract';
import type { MediaRow } from '../libraries/media.repository';
import type { RenderRow } from './render.repository';
import type { UserRow } from '../accounts/user.repository';
import { RenderService, type RenderDeps } from './render.service';

const LONG = { id: 'm1', library_id: 'l1', kind: 'video', status: 'completed', duration: 3600, name: 'long.mp4' } as MediaRow;
const user = { id: 'u1' } as UserRow;

/** A service whose request checks run against one hour-long media; nothing may be queued. */
function service() {
  const sent: unknown[] = [];
  const deps = {
    media: { owned: async () => LONG, byId: async () => LONG },
    queue: { send: async (...a: unknown[]) => void sent.push(a) },
    renders: {},
    credits: { balance: async () => 0 },
  } as unknown as RenderDeps;
  return { svc: new RenderService(deps), sent };
}

describe('render request limits', () => {
  it('refuses more than 10 minutes in total before queueing anything', async () => {
    const { svc, sent } = service();
    const clips = Array.from({ length: 11 }, (_, i) => ({ libraryId: 'l1', mediaId: 'm1', start: i * 60, end: i * 60 + 60 }));
    await expect(svc.compilation(user, { clips })).rejects.toMatchObject({ code: 'bad_request', message: MSG_RENDER.tooLong });
    expect(sent).toEqual([]);
  });

  it('refuses more clips than a compilation takes (also its subtitles and exports: checkedClips)', async () => {
    const { svc, sent } = service();
    const clips = Array.from({ length: RENDER_MAX_CLIPS + 1 }, (_, i) => ({ libraryId: 'l1', mediaId: 'm1', start: i, end: i + 1 }));
    await expect(svc.checkedClips(user, { clips })).rejects.toMatchObject({ code: 'bad_request', message: MSG_RENDER.tooManyClips });
    await expect(svc.compilation(user, { clips })).rejects.toMatchObject({ message: MSG_RENDER.tooManyClips });
    expect(sent).toEqual([]);
  });

  it('refuses a GIF longer than 30 s', async () => {
    const { svc, sent } = service();
    await expect(svc.gif(user, 'l1', 'm1', { start: 10, end: 40.5 })).rejects.toMatchObject({ message: MSG_RENDER.gifTooLong });
    expect(sent).toEqual([]);
  });
});

describe('shutting down', () => {
  it('answers a request waiting for its render at once (202 with what it last read), and reads nothing more', async () => {
    const row = { id: 'r1', status: 'running', progress: 0.2, duration: 5, cost: 0, blob_key: null } as unknown as RenderRow;
    let reads = 0;
    const deps = {
      media: { owned: async () => LONG, byId: async () => LONG },
      queue: { send: async () => undefined },
      renders: {
        findByKey: async () => undefined,
        findOrCreate: async () => ({ row, queue: true }),
        byId: async () => (reads++, row),
      },
      credits: { balance: async () => 0 },
      waitMs: 60_000,
    } as unknown as RenderDeps;
    const svc = new RenderService(deps);
    const started = Date.now();
    const waiting = svc.compilation(user, { clips: [{ libraryId: 'l1', mediaId: 'm1', start: 0, end: 5 }] });
    await new Promise((r) => setTimeout(r, 300));
    svc.stopWaiting();
    const { status, answer } = await waiting;
    expect(status).toBe(202);
    expect(answer).toMatchObject({ renderId: 'r1', status: 'running' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const after = reads;
    await new Promise((r) => setTimeout(r, 700));
    expect(reads).toBe(after);
  });
});

describe('aspect and framing (issue 39)', () => {
  /** The spec and request key each body is queued with (the first request's; nothing renders). */
  async function queued(body: Parameters<RenderService['compilation']>[1]) {
    let made: { spec: unknown; request_key: string } | undefined;
    const row = { id: 'r1', status: 'queued', progress: 0, duration: 5, cost: 0, blob_key: null } as unknown as RenderRow;
    const deps = {
      media: { owned: async () => LONG, byId: async () => LONG },
      queue: { send: async () => undefined },
      renders: {
        findByKey: async () => undefined,
        findOrCreate: async (r: { spec: unknown; request_key: string }) => ((made = r), { row, queue: true }),
        byId: async () => row,
      },
      credits: { balance: async () => 0 },
      waitMs: 0,
    } as unknown as RenderDeps;
    await new RenderService(deps).compilation(user, body);
    return { spec: made!.spec, request_key: made!.request_key };
  }
  const clip = { libraryId: 'l1', mediaId: 'm1', start: 0, end: 5 };

  it('keeps a plain request as it was: no aspect in its spec, the same key as before the option existed', async () => {
    const plain = await queued({ clips: [clip] });
    expect(plain.spec).toEqual({ clips: [{ mediaId: 'm1', libraryId: 'l1', start: 0, end: 5 }], height: 720 });
    // a clip's framing means nothing without a cropped aspect
    expect(await queued({ clips: [{ ...clip, framing: { x: 0, y: 0.5 } }], aspect: 'source' })).toEqual(plain);
  });

  it('puts the aspect and each clip’s fixed framing in the spec and the request key', async () => {
    const plain = await queued({ clips: [clip] });
    const vertical = await queued({ clips: [clip], aspect: '9:16' });
    const fixed = await queued({ clips: [{ ...clip, framing: { x: 0, y: 0.5 } }], aspect: '9:16' });
    const square = await queued({ clips: [clip], aspect: '1:1' });
    expect(vertical.spec).toMatchObject({ aspect: '9:16' });
    expect(fixed.spec).toMatchObject({ aspect: '9:16', clips: [{ framing: { x: 0, y: 0.5 } }] });
    expect(new Set([plain, vertical, fixed, square].map((r) => r.request_key)).size).toBe(4);
  });
});

describe('captions in the request (issue 39)', () => {
  /** The request key and spec each compilation request is stored under (nothing renders). */
  function recorder() {
    const made: Array<{ key: string; spec: unknown; cost: number }> = [];
    const row = { id: 'r1', status: 'completed', progress: 1, duration: 5, cost: 0, blob_key: null } as unknown as RenderRow;
    const deps = {
      media: { owned: async () => LONG, byId: async () => LONG },
      queue: { send: async () => undefined },
      renders: {
        findByKey: async () => undefined,
        findOrCreate: async (r: { request_key: string; spec: unknown; cost: number }) => (
          made.push({ key: r.request_key, spec: r.spec, cost: r.cost }),
          { row, queue: false }
        ),
        byId: async () => row,
      },
      credits: { balance: async () => 1000 },
      waitMs: 0,
    } as unknown as RenderDeps;
    return { svc: new RenderService(deps), made };
  }
  const clips = [{ libraryId: 'l1', mediaId: 'm1', start: 0, end: 5 }];

  it('makes other captions another render, and no captions (or none asked for) the render it was', async () => {
    const { svc, made } = recorder();
    await svc.compilation(user, { clips });
    await svc.compilation(user, { clips, captions: {} });
    await svc.compilation(user, { clips, captions: { soft: false } });
    await svc.compilation(user, { clips, captions: { burn: 'bar' } });
    await svc.compilation(user, { clips, captions: { burn: 'words' } });
    await svc.compilation(user, { clips, captions: { burn: 'bar', soft: true } });
    const keys = made.map((m) => m.key);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe(keys[0]);
    expect(new Set(keys.slice(2)).size).toBe(4);
    expect(made[0]!.spec).not.toHaveProperty('captions');
    expect(made[5]!.spec).toMatchObject({ captions: { burn: 'bar', soft: true } });
  });

  it('charges nothing more for captions: the watermark rule alone decides', async () => {
    const { svc, made } = recorder();
    await svc.compilation(user, { clips, watermark: false });
    await svc.compilation(user, { clips, watermark: false, captions: { burn: 'subtitle', soft: true } });
    await svc.compilation(user, { clips, captions: { burn: 'subtitle' } });
    expect(made.map((m) => m.cost)).toEqual([made[0]!.cost, made[0]!.cost, 0]);
    expect(made[0]!.cost).toBeGreaterThan(0);
  });
});
