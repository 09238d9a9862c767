import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkToolError, ytDlp, type YtDlpOptions } from '../../src/server/adapters/media/ytdlp';
import { startEgressProxy, type EgressProxy } from '../../src/server/adapters/security/egressProxy';
import { startLinkSite, type LinkSite } from '../fixtures/linkSite';

// The yt-dlp adapter's caps against the loopback test site: a size cap stops a download, and a
// timeout kills yt-dlp with everything it started, leaving nothing running in its folder.

let site: LinkSite;
let proxy: EgressProxy;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-ytdlp-'));
  site = await startLinkSite(path.join(dir, 'site'));
  proxy = await startEgressProxy({ allow: new Set([site.host]) });
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await site?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const options = (o: Partial<YtDlpOptions>): YtDlpOptions => ({
  bin: fs.existsSync('/usr/bin/yt-dlp') ? '/usr/bin/yt-dlp' : 'yt-dlp',
  proxy: proxy.url,
  insecureTls: true,
  maxBytes: 100 * 1024 * 1024,
  maxSeconds: 3600,
  peekTimeoutMs: 60_000,
  downloadTimeoutMs: 120_000,
  ...o,
});

/** Processes whose working folder is inside `folder`. */
function processesIn(folder: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(folder)) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe('yt-dlp adapter', () => {
  it('downloads a video into its own folder with progress', async () => {
    const out = path.join(dir, 'ok');
    const progress: number[] = [];
    const r = await ytDlp(options({})).download(site.urls.mp4, out, (f) => progress.push(f));
    expect(path.dirname(r.file)).toBe(out);
    expect(fs.statSync(r.file).size).toBeGreaterThan(1000);
    expect(progress.at(-1)).toBe(1);
  });

  it('refuses a video larger than the size cap', async () => {
    const size = fs.statSync(path.join(dir, 'site', 'video.mp4')).size;
    const err = await ytDlp(options({ maxBytes: Math.floor(size / 2) }))
      .download(site.urls.mp4, path.join(dir, 'big'), () => undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LinkToolError);
    expect(fs.readdirSync(path.join(dir, 'big')).filter((f) => f.endsWith('.mp4'))).toEqual([]);
  });

  it('kills yt-dlp and what it started when the time is up', async () => {
    const out = path.join(dir, 'slow');
    const started = Date.now();
    const err = await ytDlp(options({ downloadTimeoutMs: 300 }))
      .download(site.urls.hls, out, () => undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LinkToolError);
    expect((err as LinkToolError).timedOut).toBe(true);
    expect((err as Error).message).toMatch(/took longer than/);
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 200));
    expect(processesIn(out)).toEqual([]);
  });
});
