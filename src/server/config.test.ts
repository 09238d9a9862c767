import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('finds yt-dlp and allows no loopback host for link import unless a test names one', () => {
    expect(loadConfig({}).linkImportTestLoopback).toEqual([]);
    expect(loadConfig({ YTDLP_PATH: '/opt/yt-dlp' }).ytDlpPath).toBe('/opt/yt-dlp');
    expect(loadConfig({ LINK_IMPORT_TEST_LOOPBACK: '127.0.0.1:8443, localhost:9000' }).linkImportTestLoopback).toEqual([
      '127.0.0.1:8443',
      'localhost:9000',
    ]);
    for (const bad of ['10.0.0.1:443', '169.254.169.254:80', 'example.com:443', '127.0.0.1'])
      expect(() => loadConfig({ LINK_IMPORT_TEST_LOOPBACK: bad }), bad).toThrow(/LINK_IMPORT_TEST_LOOPBACK/);
  });

  it('runs on embedded defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeNull();
    expect(c.smtpUrl).toBeNull();
    expect(c.appUrl).toBe('http://127.0.0.1:8080');
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['SMTP_URL', { SMTP_URL: 'not a url' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['ROLE', { ROLE: 'boss' }],
  ])('stops with a message naming %s', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
