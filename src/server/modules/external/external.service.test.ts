import { describe, expect, it } from 'vitest';
import { EXTERNAL_READS_PER_MINUTE, MSG_EXTERNAL } from '../../../contract';
import type { Resolver } from '../../adapters/security/addressCheck';
import { AppError } from '../../errors';
import { ExternalService, externalUniqueId, type ExternalDeps } from './external.service';

// The link check without the test setting (no loopback allowed): every spelling of loopback, and
// private and metadata addresses, are refused before anything connects; only https is a valid URL.
const resolve: Resolver = async (host) => {
  if (host === 'localhost' || host === 'localhost.') return ['127.0.0.1', '::1'];
  if (host === 'rebind.example') return ['93.184.216.34', '10.0.0.7'];
  if (host === 'video.example') return ['93.184.216.34'];
  throw new Error('unknown host');
};
const service = new ExternalService({ allowLoopback: new Set(), resolve } as unknown as ExternalDeps);

async function refusal(url: string) {
  try {
    await service.checkUrl(url);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).message;
  }
  return null;
}

describe('ExternalService.checkUrl', () => {
  it.each([
    'https://127.0.0.1/v.mp4',
    'https://127.0.0.1:443/v.mp4',
    'https://127.1/v.mp4',
    'https://2130706433/v.mp4',
    'https://0x7f.1/v.mp4',
    'https://0177.0.0.1/v.mp4',
    'https://localhost/v.mp4',
    'https://localhost./v.mp4',
    'https://[::1]/v.mp4',
    'https://[::ffff:127.0.0.1]/v.mp4',
    'https://[0:0:0:0:0:0:0:1]/v.mp4',
    'https://10.0.0.1/v.mp4',
    'https://192.168.1.20/v.mp4',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://100.100.100.200/',
    'https://0.0.0.0/v.mp4',
    'https://rebind.example/v.mp4',
    'https://nowhere.example/v.mp4',
  ])('refuses %s as unsupported', async (url) => {
    expect(await refusal(url)).toBe(MSG_EXTERNAL.unsupported);
  });

  it('refuses an http link saying that https is needed', async () => {
    expect(await refusal('http://video.example/v.mp4')).toBe(MSG_EXTERNAL.httpsRequired);
  });

  it.each(['file:///etc/passwd', 'ftp://video.example/v.mp4', 'video.example/v.mp4', '', 'https://'])(
    'refuses %s as not a valid URL',
    async (url) => {
      expect(await refusal(url)).toBe(MSG_EXTERNAL.invalidUrl);
    },
  );

  it('accepts a public https link', async () => {
    expect(await service.checkUrl(' https://video.example/v.mp4 ')).toBe('https://video.example/v.mp4');
  });
});

describe('externalUniqueId', () => {
  it('keys a YouTube video by its id whatever the link form, anything else by its address', () => {
    const id = 'dQw4w9WgXcQ';
    expect(externalUniqueId(`https://youtu.be/${id}`)).toBe(`ext1-youtube-${id}`);
    expect(externalUniqueId(`https://www.youtube.com/watch?v=${id}&t=3`)).toBe(`ext1-youtube-${id}`);
    expect(externalUniqueId('https://video.example/a.mp4')).toBe(externalUniqueId('https://video.example/a.mp4#__youtubedl_smuggle=x'));
    expect(externalUniqueId('https://video.example/a.mp4')).not.toBe(externalUniqueId('https://video.example/b.mp4'));
  });
});

describe('link reads', () => {
  it('refuses a user who started 60 reads in the last minute, before yt-dlp runs', async () => {
    let reads = 0;
    const limited = new ExternalService({
      allowLoopback: new Set(),
      resolve,
      workDir: '/tmp/clipseek-unit-links',
      rates: { count: async () => EXTERNAL_READS_PER_MINUTE, record: async () => undefined },
      reader: { info: async () => (reads++, {}) },
    } as unknown as ExternalDeps);
    const err = await limited.peek({ id: 'u1' } as never, 'https://video.example/v.mp4').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('rate_limited');
    expect((err as AppError).message).toBe(MSG_EXTERNAL.tooManyReads);
    expect(reads).toBe(0);
  });

  /** A service whose yt-dlp answers `listing`, and whose header reader answers `seconds` for any link, recording them. */
  function reading(listing: object, seconds: number | null) {
    const asked: string[] = [];
    const svc = new ExternalService({
      allowLoopback: new Set(),
      resolve,
      workDir: '/tmp/clipseek-unit-links',
      rates: { count: async () => 0, record: async () => undefined },
      reader: { info: async () => listing },
      durationAt: async (url: string) => (asked.push(url), seconds),
    } as unknown as ExternalDeps);
    return { svc, asked };
  }

  it("gives a single video without a listed length the length of its file's headers (what indexing charges for)", async () => {
    // yt-dlp's reading of a page with a <video>: the page is the link, the file is what is downloaded.
    const { svc, asked } = reading(
      { title: 'Eagle', webpage_url: 'https://video.example/page.html', url: 'https://video.example/eagle.mp4' },
      20,
    );
    const info = await svc.peek({ id: 'u1' } as never, 'https://video.example/page.html');
    expect(info.videos.map((v) => v.duration)).toEqual([20]);
    expect(asked).toEqual(['https://video.example/eagle.mp4']);
  });

  it('reads no headers when the listing has the length, nor for a private address; an unreadable file stays unknown', async () => {
    const listed = reading({ title: 'Listed', webpage_url: 'https://video.example/a.mp4', duration: 12 }, 99);
    expect((await listed.svc.peek({ id: 'u1' } as never, 'https://video.example/a.mp4')).videos[0]!.duration).toBe(12);
    expect(listed.asked).toEqual([]);
    const hidden = reading({ title: 'Hidden', webpage_url: 'https://video.example/p.html', url: 'https://10.0.0.1/x.mp4' }, 99);
    expect((await hidden.svc.peek({ id: 'u1' } as never, 'https://video.example/p.html')).videos[0]!.duration).toBeNull();
    expect(hidden.asked).toEqual([]);
    const unreadable = reading({ title: 'Odd', webpage_url: 'https://video.example/odd' }, null);
    expect((await unreadable.svc.peek({ id: 'u1' } as never, 'https://video.example/odd')).videos[0]!.duration).toBeNull();
  });
});
