import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from './stateTestKit';

const storage = new MemoryStorage();
vi.stubGlobal('localStorage', storage);
vi.spyOn(console, 'warn').mockImplementation(() => undefined);
const { loadMomentFraming, momentFraming, MOMENT_FRAMING_KEPT, setMomentAspect, setMomentCrop } = await import('./momentFraming');
const { session } = await import('./session');

/** What a page loading afresh would find: the tab's state gone, then read from the device. */
const reload = () => {
  momentFraming.byMoment = {};
  loadMomentFraming();
};

beforeEach(() => {
  storage.data.clear();
  storage.refuse = false;
  session.claims = null;
  loadMomentFraming();
});

describe('moment framing (issue 39: the crop chosen over a moment)', () => {
  it('is there again after a reload: the shape, and the window where it was dragged', () => {
    setMomentAspect('m_a', '9:16');
    setMomentCrop('m_b', '1:1', { x: 0.25, y: 0.6 });
    reload();
    expect(momentFraming.byMoment).toEqual({ m_a: { aspect: '9:16' }, m_b: { aspect: '1:1', framing: { x: 0.25, y: 0.6 } } });
    // Letting the window follow the subject again is kept too, and the shape keeps a fixed centre.
    setMomentAspect('m_b', '4:5');
    setMomentCrop('m_a', '9:16', undefined);
    reload();
    expect(momentFraming.byMoment).toEqual({ m_a: { aspect: '9:16' }, m_b: { aspect: '4:5', framing: { x: 0.25, y: 0.6 } } });
  });

  it('keeps each account its own', () => {
    session.claims = { sub: 'user-1' } as typeof session.claims;
    setMomentCrop('m_a', '9:16', { x: 0.3, y: 0.5 });
    session.claims = { sub: 'user-2' } as typeof session.claims;
    expect(momentFraming.byMoment).toEqual({});
    setMomentAspect('m_a', '1:1');
    session.claims = { sub: 'user-1' } as typeof session.claims;
    expect(momentFraming.byMoment).toEqual({ m_a: { aspect: '9:16', framing: { x: 0.3, y: 0.5 } } });
  });

  it('keeps the latest MOMENT_FRAMING_KEPT, a moment chosen again counting as new', () => {
    for (let i = 0; i <= MOMENT_FRAMING_KEPT; i++) setMomentAspect(`m_${i}`, '9:16');
    // The first is chosen again: the second is now the oldest, and falls out.
    setMomentAspect('m_0', '1:1');
    setMomentAspect('m_new', '4:5');
    reload();
    const kept = Object.keys(momentFraming.byMoment);
    expect(kept).toHaveLength(MOMENT_FRAMING_KEPT);
    expect(kept).not.toContain('m_1');
    expect(kept).not.toContain('m_2');
    expect(momentFraming.byMoment['m_0']).toEqual({ aspect: '1:1' });
    expect(momentFraming.byMoment['m_new']).toEqual({ aspect: '4:5' });
  });

  it('drops what is stored wrong, keeps what is right, and works on when storage refuses', () => {
    storage.data.set(
      'clipseek.momentFraming.anonymous',
      JSON.stringify({
        m_ok: { aspect: '9:16', framing: { x: 0.5, y: 0.5 } },
        m_shape: { aspect: '2:1' },
        m_out: { aspect: '1:1', framing: { x: 1.5, y: 0.5 } },
        m_num: 3,
      }),
    );
    loadMomentFraming();
    expect(momentFraming.byMoment).toEqual({ m_ok: { aspect: '9:16', framing: { x: 0.5, y: 0.5 } }, m_out: { aspect: '1:1' } });
    storage.data.set('clipseek.momentFraming.anonymous', '{not json');
    loadMomentFraming();
    expect(momentFraming.byMoment).toEqual({});
    storage.refuse = true;
    setMomentCrop('m_a', '9:16', { x: 0.1, y: 0.2 });
    expect(momentFraming.byMoment['m_a']).toEqual({ aspect: '9:16', framing: { x: 0.1, y: 0.2 } });
  });
});
