import { describe, expect, it } from 'vitest';
import { MSG_RENDER } from '../../contract';
import type { MediaRow } from '../repositories/media.repository';
import type { UserRow } from '../repositories/user.repository';
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
