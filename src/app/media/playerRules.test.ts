import { describe, expect, it } from 'vitest';
import { volumeToGain } from '../../contract';
import { activeLineIndex, arrowSeek, DEFAULT_SOUND, toggledMute, withVolume } from './playerRules';

describe('player sound', () => {
  it('starts at full volume, heard through the quadratic curve', () => {
    expect(DEFAULT_SOUND).toEqual({ volume: 100, muted: false, previousVolume: 100 });
    expect(volumeToGain(50)).toBe(0.25);
    expect(volumeToGain(100)).toBe(1);
  });

  it('mute remembers the volume and unmute restores it', () => {
    const half = withVolume(DEFAULT_SOUND, 50);
    const muted = toggledMute(half);
    expect(muted).toEqual({ volume: 0, muted: true, previousVolume: 50 });
    expect(toggledMute(muted)).toEqual({ volume: 50, muted: false, previousVolume: 50 });
  });

  it('sliding to 0 mutes, and unmuting then restores the last audible volume', () => {
    const zero = withVolume(withVolume(DEFAULT_SOUND, 30), 0);
    expect(zero).toEqual({ volume: 0, muted: true, previousVolume: 30 });
    expect(toggledMute(zero).volume).toBe(30);
    expect(withVolume(zero, 70)).toEqual({ volume: 70, muted: false, previousVolume: 70 });
  });

  it('keeps the volume within 0..100', () => {
    expect(withVolume(DEFAULT_SOUND, 140).volume).toBe(100);
    expect(withVolume(DEFAULT_SOUND, -5).muted).toBe(true);
  });
});

describe('arrow seeking', () => {
  it('moves 5 s, snaps to 0 under 5 s and stops at the end', () => {
    expect(arrowSeek(20, 1, 60)).toBe(25);
    expect(arrowSeek(20, -1, 60)).toBe(15);
    expect(arrowSeek(8, -1, 60)).toBe(0);
    expect(arrowSeek(1, 1, 60)).toBe(6);
    expect(arrowSeek(58, 1, 60)).toBe(60);
  });
});

describe('active line', () => {
  const lines = [
    { start: 0, end: 2 },
    { start: 2.5, end: 4 },
    { start: 6, end: 8 },
  ];
  it('finds the line containing the time, with 0.1 s tolerance', () => {
    expect(activeLineIndex(lines, 1)).toBe(0);
    expect(activeLineIndex(lines, 2.05)).toBe(0);
    expect(activeLineIndex(lines, 2.42)).toBe(1);
    expect(activeLineIndex(lines, 3)).toBe(1);
    expect(activeLineIndex(lines, 5)).toBe(-1);
    expect(activeLineIndex(lines, 9)).toBe(-1);
    expect(activeLineIndex([], 1)).toBe(-1);
  });
  it('prefers the line that has started where two are within reach', () => {
    expect(
      activeLineIndex(
        [
          { start: 0, end: 2 },
          { start: 2.05, end: 3 },
        ],
        2.06,
      ),
    ).toBe(1);
    expect(
      activeLineIndex(
        [
          { start: 0, end: 5 },
          { start: 1, end: 2 },
        ],
        1.5,
      ),
    ).toBe(1);
  });
});
