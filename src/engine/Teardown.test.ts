import { afterEach, describe, expect, it, vi } from 'vitest';
import { Teardown } from './Teardown';

afterEach(() => vi.useRealTimers());

describe('Teardown', () => {
  it('undoes everything, newest first, once', () => {
    const td = new Teardown();
    const order: number[] = [];
    td.add(() => order.push(1));
    td.add(() => order.push(2));
    td.dispose();
    td.dispose();
    expect(order).toEqual([2, 1]);
    expect(td.size).toBe(0);
  });

  it('removes listeners and clears timers', () => {
    vi.useFakeTimers();
    const td = new Teardown();
    const target = new EventTarget();
    const heard = vi.fn();
    const ticks = vi.fn();
    td.listen(target, 'x', heard);
    td.interval(ticks, 10);
    td.timeout(ticks, 1000);
    vi.advanceTimersByTime(25);
    td.dispose();
    target.dispatchEvent(new Event('x'));
    vi.advanceTimersByTime(5000);
    expect(heard).not.toHaveBeenCalled();
    expect(ticks).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets timers that fired, so long sessions do not grow it', () => {
    vi.useFakeTimers();
    const td = new Teardown();
    for (let i = 0; i < 100; i++) td.timeout(() => {}, 1);
    expect(td.size).toBe(100);
    vi.advanceTimersByTime(2);
    expect(td.size).toBe(0);
  });

  it('disposes children with the parent, and runs late registrations at once', () => {
    const td = new Teardown();
    const child = td.child();
    const fn = vi.fn();
    child.add(fn);
    td.dispose();
    expect(fn).toHaveBeenCalledOnce();
    const late = vi.fn();
    td.add(late);
    expect(late).toHaveBeenCalledOnce();
    const c = new AbortController();
    const td2 = new Teardown();
    td2.add(() => c.abort());
    td2.dispose();
    expect(c.signal.aborted).toBe(true);
  });

  it('a child disposed early leaves its parent', () => {
    const td = new Teardown();
    const child = td.child();
    expect(td.size).toBe(1);
    child.dispose();
    expect(td.size).toBe(0);
  });
});
