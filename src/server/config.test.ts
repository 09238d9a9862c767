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

  it('parses numbers, flags and choices through its schema, and says what was wrong', () => {
    const c = loadConfig({ PORT: '0', RENDER_WORKERS: '3', TRUST_PROXY: 'true', LOG_LEVEL: 'debug', BLOB_STORE: 's3', S3_BUCKET: 'b' });
    expect([c.port, c.renderWorkers, c.trustProxy, c.logLevel, c.blobStore, c.s3.forcePathStyle]).toEqual([
      0,
      3,
      true,
      'debug',
      's3',
      true,
    ]);
    expect([loadConfig({}).backgroundIdle, loadConfig({ BACKGROUND_IDLE: 'false' }).backgroundIdle]).toEqual([true, false]);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow("Invalid configuration: PORT must be a port number 0-65535 (got 'eighty')");
    expect(() => loadConfig({ ROLE: 'boss' })).toThrow("Invalid configuration: ROLE must be one of all, api, worker (got 'boss')");
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/^Invalid configuration: JWT_SECRET must be at least 32 characters$/);
  });

  it('runs on embedded defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeNull();
    expect(c.smtpUrl).toBeNull();
    expect(c.appUrl).toBe('http://127.0.0.1:8080');
    expect([c.logLevel, c.role, c.blobStore, c.trustProxy, c.signupBonusCredits, c.signupBonusDays]).toEqual([
      'info',
      'all',
      'local',
      false,
      20_000,
      30,
    ]);
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['SMTP_URL', { SMTP_URL: 'not a url' }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
    ['BACKGROUND_IDLE', { BACKGROUND_IDLE: 'yes' }],
    ['ROLE', { ROLE: 'boss' }],
    ['BLOB_STORE', { BLOB_STORE: 'ftp' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: '1' }],
    ['RENDER_WORKERS', { RENDER_WORKERS: '1.5' }],
    ['RENDER_WORKERS', { RENDER_WORKERS: '0' }],
    ['RENDER_WAIT_MS', { RENDER_WAIT_MS: 'Infinity' }],
    ['JOB_LEASE_TTL_MS', { JOB_LEASE_TTL_MS: '999' }],
    ['SIGNUP_BONUS_CREDITS', { SIGNUP_BONUS_CREDITS: '-1' }],
  ])('stops with a message naming %s', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
