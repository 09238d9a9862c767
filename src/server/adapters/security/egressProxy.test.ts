import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Resolver } from './addressCheck';
import { startEgressProxy, type EgressProxy } from './egressProxy';

// The proxy yt-dlp must use: each CONNECT is checked before any socket is opened to the target.
let proxy: EgressProxy | null = null;
let trap: net.Server | null = null;
afterEach(async () => {
  await proxy?.close();
  await new Promise<void>((r) => (trap ? trap.close(() => r()) : r()));
  proxy = null;
  trap = null;
});

/** A loopback server that counts the connections it accepts. */
async function startTrap() {
  const counter = { port: 0, connections: 0 };
  trap = net.createServer((s) => {
    counter.connections++;
    s.end();
  });
  await new Promise<void>((r) => trap!.listen(0, '127.0.0.1', r));
  counter.port = (trap.address() as net.AddressInfo).port;
  return counter;
}

/** Sends `CONNECT target` and answers the proxy's status code. */
function connect(target: string): Promise<number> {
  const u = new URL(proxy!.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('egress proxy', () => {
  it('refuses loopback, private and metadata targets, and names resolving to them, without connecting', async () => {
    const t = await startTrap();
    // No public answer here: a test must never connect anywhere but loopback.
    const resolve: Resolver = async (host) => {
      if (host === 'rebind.example' || host === 'localhost') return ['127.0.0.1'];
      throw new Error(`no DNS for ${host} in unit tests`);
    };
    // A test allow list for another host lifts the https-port rule, so the address check is what refuses.
    proxy = await startEgressProxy({ allow: new Set(['127.0.0.1:1']), resolve });
    for (const target of [
      `127.0.0.1:${t.port}`,
      `localhost:${t.port}`,
      `[::1]:${t.port}`,
      `rebind.example:${t.port}`,
      '169.254.169.254:443',
      '10.0.0.1:443',
    ])
      expect(await connect(target), target).toBe(403);
    expect(t.connections).toBe(0);
    expect(proxy.refused.map((r) => r.host)).toContain('rebind.example');
  });

  it('lets a test reach the loopback host:port it allows', async () => {
    const t = await startTrap();
    proxy = await startEgressProxy({ allow: new Set([`127.0.0.1:${t.port}`]) });
    expect(await connect(`127.0.0.1:${t.port}`)).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(t.connections).toBe(1);
  });

  it('in use reaches only the https port and never forwards plain HTTP', async () => {
    // Port 80 and plain HTTP are refused before any lookup or connection.
    proxy = await startEgressProxy({ resolve: () => Promise.reject(new Error('no DNS in unit tests')) });
    expect(await connect('video.example:80')).toBe(403);
    const u = new URL(proxy.url);
    const status = await new Promise<number>((resolve) =>
      http.get({ host: u.hostname, port: Number(u.port), path: 'http://video.example/v.mp4' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }),
    );
    expect(status).toBe(403);
  });
});
