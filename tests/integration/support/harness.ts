import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decode, encode } from '@msgpack/msgpack';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { MSGPACK, type Envelope } from '../../../src/contract';
import { startServer, type RunningServer } from '../../../src/server/main';
import { seedEmbeddedDatabase } from './pgTemplate';

export const JWT_SECRET = 'integration-test-secret-0123456789abcdefghijklmnop';

/**
 * The shipped demo samples, for the tests that are about them: `startTestServer(WITH_DEMO)`. Every
 * other test server starts with an empty demo folder, since indexing the two samples after each
 * file's first sign-up holds up the ingest worker (and both cores) for tens of seconds.
 */
export const WITH_DEMO = { DEMO_DIR: path.resolve(import.meta.dirname, '../../../assets/demo') };

export interface Mail {
  to: string;
  subject: string;
  raw: string;
  /** Links in the text part. */
  links: string[];
}

/** A real SMTP receiver on loopback that keeps every message. */
export async function startMailbox() {
  const mails: Mail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const unfolded = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        const links = [...new Set(unfolded.match(/https?:\/\/[^\s"<>]+/g) ?? [])];
        mails.push({ to: session.envelope.rcptTo[0]?.address ?? '', subject, raw, links });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits for the next mail to `to` matching `subject` that arrived after `since` mails. */
    async next(to: string, subject: RegExp, since = 0, timeoutMs = 10_000): Promise<Mail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = mails.slice(since).find((x) => x.to === to && subject.test(x.subject));
        if (m) return m;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    count: () => mails.length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A fresh server per test file: embedded PGlite in a temp DATA_DIR, or, when TEST_DATABASE_URL is
 * set (npm test's PostgreSQL pass), a fresh database on that PostgreSQL.
 */
export async function startTestServer(extraEnv: Record<string, string> = {}) {
  const mailbox = await startMailbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-it-'));
  const noDemo = path.join(dataDir, 'no-demo');
  fs.mkdirSync(noDemo);
  let dropDb: (() => Promise<void>) | null = null;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
    LOG_LEVEL: 'silent',
    JWT_SECRET,
    WEB_DIR: path.join(dataDir, 'no-web'),
    DEMO_DIR: noDemo,
    ...extraEnv,
  };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `cs_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else if (!extraEnv.DATABASE_URL) await seedEmbeddedDatabase(dataDir);
  const server: RunningServer = await startServer(env);
  const api = client(server.url);
  return {
    server,
    mailbox,
    api,
    dataDir,
    async close() {
      await server.close();
      await mailbox.close();
      if (dropDb) await dropDb();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Format = 'msgpack' | 'json';

export interface CallResult<T> {
  status: number;
  contentType: string;
  body: Envelope<T>;
}

/** Calls the API like the browser client does, in either body format. */
export function client(baseUrl: string) {
  return async function call<T = unknown>(
    method: string,
    pathName: string,
    /** `encoded`: a body already in `format` (a benchmark encodes each of its bodies once). */
    opts: { body?: unknown; encoded?: Uint8Array; token?: string; format?: Format; headers?: Record<string, string> } = {},
  ): Promise<CallResult<T>> {
    const format = opts.format ?? 'msgpack';
    const type = format === 'msgpack' ? MSGPACK : 'application/json';
    const headers: Record<string, string> = { accept: type, ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined;
    if (opts.encoded || opts.body !== undefined) {
      headers['content-type'] = type;
      if (opts.encoded) body = Buffer.from(opts.encoded);
      else body = format === 'msgpack' ? Buffer.from(encode(opts.body)) : JSON.stringify(opts.body);
    }
    const res = await fetch(baseUrl + pathName, { method, headers, body });
    const contentType = res.headers.get('content-type') ?? '';
    const buf = new Uint8Array(await res.arrayBuffer());
    const parsed = contentType.startsWith(MSGPACK) ? decode(buf) : JSON.parse(new TextDecoder().decode(buf));
    return { status: res.status, contentType, body: parsed as Envelope<T> };
  };
}

export const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
export const codeFrom = (link: string) => new URL(link).searchParams.get('code')!;
