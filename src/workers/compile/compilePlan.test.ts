import { describe, expect, it } from 'vitest';
import { encodedSeconds, parseMediaPlaylist, partCost, planClip, shareParts } from './compilePlan';

const playlist = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:2
#EXTINF:2.000000,
/library/L/media/M/preview/seg_00000.ts?token=t
#EXTINF:2.000000,
/library/L/media/M/preview/seg_00001.ts?token=t
#EXTINF:2.000000,
/library/L/media/M/preview/seg_00002.ts?token=t
#EXTINF:1.500000,
/library/L/media/M/preview/seg_00003.ts?token=t
#EXT-X-ENDLIST
`;
const segments = parseMediaPlaylist(playlist, 'http://app.test/library/L/media/M/preview?token=t');

describe('local preview plan', () => {
  it('reads segment URLs and start times from the playlist', () => {
    expect(segments.map((s) => s.start)).toEqual([0, 2, 4, 6]);
    expect(segments[1]!.url).toBe('http://app.test/library/L/media/M/preview/seg_00001.ts?token=t');
  });

  it('re-encodes only the partial head and tail segments and copies the whole ones', () => {
    const parts = planClip(segments, 1.2, 6.4);
    expect(parts.map((p) => p.kind)).toEqual(['encode', 'copy', 'copy', 'encode']);
    expect(parts[0]).toMatchObject({ from: expect.closeTo(1.2, 6), to: 2 });
    expect(parts[3]).toMatchObject({ from: 0, to: expect.closeTo(0.4, 6) });
    expect(encodedSeconds(parts)).toBeCloseTo(1.2, 6);
  });

  it('copies a clip on segment boundaries whole, and cuts a clip inside one segment once', () => {
    expect(planClip(segments, 2, 6).map((p) => p.kind)).toEqual(['copy', 'copy']);
    expect(planClip(segments, 4.2, 5.1)).toEqual([
      { kind: 'encode', segment: segments[2], from: expect.closeTo(0.2, 6), to: expect.closeTo(1.1, 6) },
    ]);
  });

  it('shares the re-encoding between workers by cost, not by clip', () => {
    // Five clips: each has a head and a tail to re-encode; by clip, 3 and 2 of them would fall to one worker.
    const plans = [0.3, 1.1, 0.7, 1.9, 0.5].map((s) => planClip(segments, s, 5.5 + s / 4));
    const owners = shareParts(plans, 2);
    const load = [0, 0];
    plans.forEach((plan, c) => plan.forEach((part, i) => (load[owners[c]![i]!]! += partCost(part))));
    const total = load[0]! + load[1]!;
    const biggest = Math.max(...plans.flat().map(partCost));
    expect(Math.abs(load[0]! - load[1]!)).toBeLessThanOrEqual(biggest);
    expect(Math.max(...load)).toBeLessThan(total * 0.6);
    // Every worker computes the same answer; one worker takes everything.
    expect(shareParts(plans, 2)).toEqual(owners);
    expect(
      shareParts(plans, 1)
        .flat()
        .every((w) => w === 0),
    ).toBe(true);
  });
});

describe('local preview plan of a cropped clip (issue 39)', () => {
  it('re-encodes every part, whole segments too, so each takes the crop', () => {
    const parts = planClip(segments, 1.2, 6.4, true);
    expect(parts.map((p) => p.kind)).toEqual(['encode', 'encode', 'encode', 'encode']);
    expect(parts[1]).toMatchObject({ from: 0, to: 2 });
    expect(encodedSeconds(parts)).toBeCloseTo(5.2, 6);
  });
});
