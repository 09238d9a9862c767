import { describe, expect, it } from 'vitest';
import { MSG_RENDER } from '../../../contract';
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
