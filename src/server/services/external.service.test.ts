import { describe, expect, it } from 'vitest';
import { EXTERNAL_READS_PER_MINUTE, MSG_EXTERNAL } from '../../contract';
import type { Resolver } from '../adapters/security/addressCheck';
import { AppError } from '../errors';
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

  it.each(['http://video.example/v.mp4', 'file:///etc/passwd', 'ftp://video.example/v.mp4', 'video.example/v.mp4', '', 'https://'])(
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
});
