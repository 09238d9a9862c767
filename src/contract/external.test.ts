import { describe, expect, it } from 'vitest';
import {
  durationFilterSeconds,
  hasNumericDuration,
  importCredits,
  isHttpsUrl,
  isOpenableUrl,
  linkUrlProblem,
  MSG_EXTERNAL,
  recogniseYouTube,
} from './external';
import { ingestCost } from './credits';

const ID = 'dQw4w9WgXcQ';

describe('recogniseYouTube (section 5)', () => {
  it.each([
    [`https://www.youtube.com/playlist?list=PL123abc`, { kind: 'playlist', list: 'PL123abc', videoId: null }],
    [`https://www.youtube.com/watch?v=${ID}&list=PL123abc`, { kind: 'playlist', list: 'PL123abc', videoId: ID }],
    [`https://youtube.com/watch?list=PL123abc`, { kind: 'playlist', list: 'PL123abc', videoId: null }],
  ])('a playlist through the list parameter on a playlist or watch path: %s', (url, expected) => {
    expect(recogniseYouTube(url)).toEqual(expected);
  });

  it.each([
    ['https://www.youtube.com/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw', 'UC_x5XG1OV2P6uZZ5FSM9Ttw'],
    ['https://www.youtube.com/c/GoogleDevelopers', 'GoogleDevelopers'],
    ['https://www.youtube.com/@GoogleDevelopers', '@GoogleDevelopers'],
    ['https://m.youtube.com/@GoogleDevelopers/videos', '@GoogleDevelopers'],
  ])('a channel through /channel/, /c/ or /@: %s', (url, channel) => {
    expect(recogniseYouTube(url)).toEqual({ kind: 'channel', channel });
  });

  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/v/${ID}`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `https://www.youtube.com/e/${ID}`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/live/${ID}`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?t=42`,
    `https://m.youtube.com/watch?v=${ID}&feature=share`,
  ])('a video id through v, /v/, /embed/, /e/, /shorts/, /live/ or the short host: %s', (url) => {
    expect(recogniseYouTube(url)).toEqual({ kind: 'video', id: ID });
  });

  it('takes an id of 11 characters or more, not shorter', () => {
    expect(recogniseYouTube('https://youtu.be/abcdefghij')).toBeNull();
    expect(recogniseYouTube('https://www.youtube.com/watch?v=abcdefghij')).toBeNull();
    expect(recogniseYouTube('https://www.youtube.com/shorts/short')).toBeNull();
    expect(recogniseYouTube('https://youtu.be/abcdefghijkl')).toEqual({ kind: 'video', id: 'abcdefghijkl' });
  });

  it('is not fooled by other hosts or paths', () => {
    expect(recogniseYouTube(`https://youtube.com.evil.example/watch?v=${ID}`)).toBeNull();
    expect(recogniseYouTube(`https://notyoutube.com/watch?v=${ID}`)).toBeNull();
    expect(recogniseYouTube(`https://www.youtube.com/results?search_query=${ID}`)).toBeNull();
    expect(recogniseYouTube(`https://www.youtube.com/feed?list=PL123`)).toBeNull();
    expect(recogniseYouTube('not a url')).toBeNull();
  });
});

describe('durationFilterSeconds (section 5 and 9)', () => {
  it('converts seconds (1), minutes (60) and hours (3600)', () => {
    expect(durationFilterSeconds('90', 'seconds')).toBe(90);
    expect(durationFilterSeconds('2', 'minutes')).toBe(120);
    expect(durationFilterSeconds('1.5', 'hours')).toBe(5400);
    expect(durationFilterSeconds(' 3 ', 'minutes')).toBe(180);
  });
  it('ignores non-numeric input', () => {
    for (const v of ['', 'abc', '1e3', '-5', '5 min', '1:30', 'NaN', 'Infinity']) expect(durationFilterSeconds(v, 'seconds'), v).toBeNull();
  });
});

describe('import rules', () => {
  it('only https URLs are valid (section 5)', () => {
    expect(isHttpsUrl('https://example.com/v.mp4')).toBe(true);
    expect(isHttpsUrl('HTTPS://example.com/v.mp4')).toBe(true);
    for (const u of ['http://example.com/v.mp4', 'file:///etc/passwd', 'example.com', 'https://', 'javascript:alert(1)'])
      expect(isHttpsUrl(u), u).toBe(false);
  });
  it('opens only http(s) originals', () => {
    expect(isOpenableUrl('http://example.com')).toBe(true);
    expect(isOpenableUrl(undefined)).toBe(false);
    expect(isOpenableUrl('javascript:alert(1)')).toBe(false);
  });
  it('leaves out videos without a numeric duration', () => {
    expect([{ duration: 3 }, { duration: null }, { duration: 'NaN' }, { duration: Number.NaN }, {}].filter(hasNumericDuration)).toEqual([
      { duration: 3 },
    ]);
  });
  it('says an http link needs https, and anything else that it is not valid', () => {
    expect(linkUrlProblem('https://example.com/v.mp4')).toBeNull();
    for (const u of ['http://example.com/v.mp4', ' HTTP://127.0.0.1:8080/x '])
      expect(linkUrlProblem(u), u).toBe(MSG_EXTERNAL.httpsRequired);
    for (const u of ['file:///etc/passwd', 'example.com', 'http://', 'ftp://example.com/v.mp4', 'not a url'])
      expect(linkUrlProblem(u), u).toBe(MSG_EXTERNAL.invalidUrl);
  });
  it('gives approximate credits, credits left and credits after, each video at what indexing it will charge', () => {
    expect(importCredits([3600, 2], 20_000)).toEqual({ approx: 10_000 + 14, left: 20_000, after: 20_000 - 10_014 });
    // issue 37: a 20 s video is 56 credits, as its indexing charges
    expect(importCredits([20], 20_000).approx).toBe(ingestCost(20));
    expect(ingestCost(20)).toBe(56);
  });
  it('gives no figure when a length is unknown, rather than the 5 s minimum', () => {
    expect(importCredits([20, null], 20_000)).toEqual({ approx: null, left: 20_000, after: null });
    expect(importCredits([0], 20_000).approx).toBeNull();
  });
});
