import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ingestCost, MSG_EXTERNAL, type ExternalAddAnswer, type LinkInfo, type Media } from '../../src/contract';
import { FEED_VIDEOS, startLinkSite, type LinkSite } from '../fixtures/linkSite';
import { startTestServer } from './support/harness';
import { defaultLibrary, verifiedUser, waitForStatus } from './support/upload';

// Link import against a video site served on loopback over https (a throwaway certificate): yt-dlp's
// generic extractor reads a direct MP4, a page with a <video>, an HLS playlist and an RSS feed; the
// server refuses every address but the test site's, before connecting.

let t: Awaited<ReturnType<typeof startTestServer>>;
let site: LinkSite;
let dir: string;
let owner: { token: string; userId: string };
let lib: { _id: string; rootFolderId: string };

const DONE = ['completed', 'errored', 'invalid', 'failed'];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-links-'));
  site = await startLinkSite(dir);
  t = await startTestServer({ LINK_IMPORT_TEST_LOOPBACK: site.host, SIGNUP_BONUS_CREDITS: '100000' });
  owner = await verifiedUser(t, 'links');
  lib = await defaultLibrary(t, owner.token);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await site?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const peek = (url: string) => t.api<LinkInfo>('POST', API.externalPeek, { token: owner.token, body: { url } });
const add = (url: string) =>
  t.api<ExternalAddAnswer>('POST', API.externalAdd(lib._id, lib.rootFolderId), { token: owner.token, body: { url } });
const balance = () => t.server.ledger.balance(owner.userId);

describe('link info (peek and unwind)', () => {
  it('reads a direct MP4 link as one video, its length from the file (yt-dlp lists none)', async () => {
    const r = await peek(site.urls.mp4);
    expect(r.status).toBe(200);
    expect(r.body.data!.type).toBe('single');
    expect(r.body.data!.videos).toHaveLength(1);
    expect(r.body.data!.videos[0]!.url).toBe(site.urls.mp4);
    expect(r.body.data!.videos[0]!.uniqueId).toMatch(/^ext1-url-/);
    expect(r.body.data!.videos[0]!.duration).toBeCloseTo(3, 1);
  });

  it("reads a page with a <video> as one video titled like the page, its length from the page's video", async () => {
    const r = await peek(site.urls.page);
    expect(r.status).toBe(200);
    expect(r.body.data!.type).toBe('single');
    expect(r.body.data!.videos[0]!.title).toContain('Eagle in flight');
    expect(r.body.data!.videos[0]!.duration).toBeCloseTo(3, 1);
  });

  it('reads an HLS playlist as one video, its length from the playlist', async () => {
    const r = await peek(site.urls.hls);
    expect(r.status).toBe(200);
    expect(r.body.data!.type).toBe('single');
    expect(r.body.data!.videos[0]!.duration).toBeCloseTo(4, 0);
  });

  it('reads an RSS feed as a playlist of its 3 videos with titles, durations and dates; unwind lists them too', async () => {
    const r = await peek(site.urls.feed);
    expect(r.status).toBe(200);
    const info = r.body.data!;
    expect(info.type).toBe('playlist');
    expect(info.title).toBe('Clipseek test feed');
    expect(info.videos.map((v) => v.title)).toEqual(FEED_VIDEOS.map((v) => v.title));
    expect(info.videos.map((v) => v.duration)).toEqual(FEED_VIDEOS.map((v) => v.seconds));
    expect(info.videos.map((v) => v.url)).toEqual(FEED_VIDEOS.map((v) => `${site.origin}/feed/${v.slug}.mp4`));
    expect(info.videos[0]!.publishedAt).toBe('2023-01-02T10:00:00.000Z');
    expect(new Set(info.videos.map((v) => v.uniqueId)).size).toBe(3);
    // The feed's first video read on its own has the key the feed gave it.
    expect((await peek(info.videos[0]!.url)).body.data!.videos[0]!.uniqueId).toBe(info.videos[0]!.uniqueId);

    const unwound = await t.api<LinkInfo>('POST', API.externalUnwind, { token: owner.token, body: { url: site.urls.feed } });
    expect(unwound.body.data!.videos).toHaveLength(3);
    const single = await t.api<LinkInfo>('POST', API.externalUnwind, { token: owner.token, body: { url: site.urls.mp4 } });
    expect(single.status).toBe(400);
  });

  it('answers the unsupported message for a link yt-dlp cannot read', async () => {
    const r = await peek(`${site.origin}/missing.mp4`);
    expect(r.status).toBe(400);
    expect(r.body.error!.message).toBe(MSG_EXTERNAL.unsupported);
  });

  it('needs a session', async () => {
    const r = await t.api('POST', API.externalPeek, { body: { url: site.urls.mp4 } });
    expect(r.status).toBe(401);
  });
});

describe('refused links', () => {
  it('refuses an http link saying https is needed, and file and other links as not valid', async () => {
    for (const [url, message] of [
      [`http://127.0.0.1:${site.trap.port}/video.mp4`, MSG_EXTERNAL.httpsRequired],
      ['file:///etc/passwd', MSG_EXTERNAL.invalidUrl],
      ['ftp://example.com/x.mp4', MSG_EXTERNAL.invalidUrl],
      ['not a url', MSG_EXTERNAL.invalidUrl],
    ] as const) {
      const r = await peek(url);
      expect(r.status, url).toBe(400);
      expect(r.body.error!.message, url).toBe(message);
    }
    expect(site.trap.connections).toBe(0);
  });

  it('refuses loopback in every spelling (other than the allowed test host) without connecting to it', async () => {
    const port = site.trap.port;
    const spellings = ['127.0.0.1', '127.1', 'localhost', '[::1]', '2130706433', '0x7f.1', '0177.0.0.1', '[::ffff:127.0.0.1]'];
    for (const host of spellings) {
      const url = `https://${host}:${port}/video.mp4`;
      for (const r of [await peek(url), await add(url)]) {
        expect(r.status, url).toBe(400);
        expect(r.body.error!.message, url).toBe(MSG_EXTERNAL.unsupported);
      }
    }
    // The allowed host under another spelling is refused too: the allowance is for 127.0.0.1:PORT only.
    const sitePort = new URL(site.origin).port;
    expect((await peek(`https://localhost:${sitePort}/video.mp4`)).status).toBe(400);
    expect(site.trap.connections).toBe(0);
  });

  it('refuses a redirect from the allowed site to a loopback address before connecting to it', async () => {
    const before = site.requests.length;
    const r = await peek(site.urls.redirect);
    expect(r.status).toBe(400);
    expect(r.body.error!.message).toBe(MSG_EXTERNAL.unsupported);
    expect(site.requests.slice(before)).toContain('/redirect');
    expect(site.trap.connections).toBe(0);
  });

  it('refuses a private or metadata address without connecting', async () => {
    for (const host of ['10.0.0.1', '192.168.1.1', '169.254.169.254', '[fd00::1]', '0.0.0.0']) {
      const r = await peek(`https://${host}/video.mp4`);
      expect(r.status, host).toBe(400);
      expect(r.body.error!.message, host).toBe(MSG_EXTERNAL.unsupported);
    }
  });
});

describe('import', () => {
  let first: Media;

  it('adds a direct MP4 link: downloaded as the first ingest stage, indexed, charged once, origin kept', async () => {
    const before = await balance();
    const r = await add(site.urls.mp4);
    expect(r.status).toBe(201);
    const created = r.body.data!.media[0]!;
    expect(created.status).toBe('queued');
    expect(created.origin).toEqual({ source: 'external', type: 'single', url: site.urls.mp4 });
    first = await waitForStatus(t, owner.token, lib._id, created._id, DONE, 180_000);
    expect(first.status, first.error?.message).toBe('completed');
    expect(first.metadata.video.duration).toBeCloseTo(3, 0);
    expect(first.metadata.video.originalMediaSize).toBeGreaterThan(0);
    const listed = (await peek(site.urls.mp4)).body.data!.videos[0]!;
    expect(first.uniqueId).toBe(listed.uniqueId);
    expect(await balance()).toBe(before - ingestCost(first.metadata.video.duration));
    // What the link's reading said it would cost is what was charged (issue 37).
    expect(await balance()).toBe(before - ingestCost(listed.duration!));
  }, 240_000);

  it('refuses the same video again: it is already in the library', async () => {
    const r = await add(site.urls.mp4);
    expect(r.status).toBe(409);
    expect(r.body.error!.message).toBe(MSG_EXTERNAL.duplicate);
  });

  it('refuses a playlist link given to the single add', async () => {
    const r = await add(site.urls.feed);
    expect(r.status).toBe(400);
    expect(r.body.error!.message).toBe(MSG_EXTERNAL.playlistNeedsChoice);
  });

  it('adds chosen feed videos in bulk; a refused item fails on its own', async () => {
    const info = (await peek(site.urls.feed)).body.data!;
    const r = await t.api<ExternalAddAnswer>('POST', API.externalBulk(lib._id, lib.rootFolderId), {
      token: owner.token,
      body: {
        type: 'playlist',
        items: [
          ...info.videos.slice(0, 2).map((v) => ({ url: v.url, name: v.title })),
          { url: `https://127.1:${site.trap.port}/x.mp4`, name: 'trap' },
        ],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.data!.failed).toEqual([{ url: `https://127.1:${site.trap.port}/x.mp4`, message: MSG_EXTERNAL.unsupported }]);
    const media = r.body.data!.media;
    expect(media.map((m) => m.metadata.name)).toEqual(info.videos.slice(0, 2).map((v) => v.title));
    expect(media.map((m) => m.uniqueId)).toEqual(info.videos.slice(0, 2).map((v) => v.uniqueId));
    for (const m of media) {
      const done = await waitForStatus(t, owner.token, lib._id, m._id, DONE, 180_000);
      expect(done.status, done.error?.message).toBe('completed');
      expect(done.origin).toEqual({ source: 'external', type: 'playlist', url: m.origin.url });
    }
    // Indexed like an upload: the dog video is found by what is seen in it.
    const found = await t.api<{ results: Array<{ mediaId: string }> }>('POST', `${API.searchVisual(lib._id)}?limit=20`, {
      token: owner.token,
      body: { text: 'dog' },
    });
    expect(found.status).toBe(200);
    expect(found.body.data!.results.map((r) => r.mediaId)).toContain(media[0]!._id);
    expect(site.trap.connections).toBe(0);
  }, 400_000);

  it('imports an HLS playlist link and the video of a page', async () => {
    for (const [url, seconds] of [
      [site.urls.hls, 4],
      [site.urls.page, 3],
    ] as const) {
      const r = await add(url);
      expect(r.status, url).toBe(201);
      const done = await waitForStatus(t, owner.token, lib._id, r.body.data!.media[0]!._id, DONE, 180_000);
      expect(done.status, done.error?.message).toBe('completed');
      expect(done.metadata.video.duration).toBeCloseTo(seconds, 0);
    }
    expect(site.requests).toContain('/page-video.mp4');
  }, 300_000);

  it('a download that is cut off leaves a failed media with its reason, and charges nothing', async () => {
    const before = await balance();
    const r = await t.api<ExternalAddAnswer>('POST', API.externalBulk(lib._id, lib.rootFolderId), {
      token: owner.token,
      body: { items: [{ url: site.urls.cut, name: 'Cut off' }] },
    });
    expect(r.status).toBe(201);
    const failed = await waitForStatus(t, owner.token, lib._id, r.body.data!.media[0]!._id, DONE, 120_000);
    expect(failed.status).toBe('failed');
    expect(failed.error!.message).toMatch(/^The video could not be downloaded from its link: .+/);
    expect(await balance()).toBe(before);
    // A retry downloads again (and fails again the same way) rather than asking for a file.
    const retry = await t.api<{ error: string | null }>('POST', API.mediaRetry(lib._id, failed._id), { token: owner.token });
    expect(retry.body.data!.error).toBeNull();
    const again = await waitForStatus(t, owner.token, lib._id, failed._id, ['failed'], 120_000);
    expect(again.error!.message).toMatch(/could not be downloaded/);
    expect(await balance()).toBe(before);
  }, 300_000);
});
