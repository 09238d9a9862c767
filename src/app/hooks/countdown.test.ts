import { describe, expect, it } from 'vitest';
import { RESEND_WAIT_MS } from '../../contract';
import { canResend, secondsLeft, waitUntil } from './countdown';

describe('resend countdown', () => {
  it('counts whole seconds, rounding up, down to zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
    expect(secondsLeft(null, 0)).toBe(0);
  });

  it('waits 60 seconds after a send', () => {
    expect(waitUntil(1000)).toBe(1000 + RESEND_WAIT_MS);
    expect(secondsLeft(waitUntil(0), 0)).toBe(60);
  });

  it('honours a longer server wait, not a shorter one', () => {
    expect(waitUntil(0, 90)).toBe(90_000);
    expect(waitUntil(0, 5)).toBe(RESEND_WAIT_MS);
  });

  it('ignores a resend under 60 seconds after the previous one', () => {
    expect(canResend(null, 0)).toBe(true);
    expect(canResend(0, RESEND_WAIT_MS - 1)).toBe(false);
    expect(canResend(0, RESEND_WAIT_MS)).toBe(true);
  });
});
