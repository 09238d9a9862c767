import { describe, expect, it } from 'vitest';
import { demoReadiness } from './workspaceRules';

const stats = (count: number, completed: number) => ({
  count,
  mediaSize: 0,
  mediaDuration: 0,
  breakdown: { completed: { count: completed } },
});

describe('demoReadiness', () => {
  it("never says '0 videos ready' while the samples are indexed", () => {
    expect(demoReadiness(stats(2, 0))).toEqual({ text: 'Getting 2 videos ready to search…', indexing: true });
    expect(demoReadiness(stats(2, 1))).toEqual({ text: '1 of 2 videos ready to search, the rest on the way…', indexing: true });
    expect(demoReadiness(stats(2, 2))).toEqual({ text: '2 videos ready to search', indexing: false });
    expect(demoReadiness(stats(1, 1))).toEqual({ text: '1 video ready to search', indexing: false });
    expect(demoReadiness(stats(0, 0))).toEqual({ text: 'No sample videos yet', indexing: false });
  });
});
