import http from 'node:http';
import net from 'node:net';
import { checkHost, RefusedAddressError, type LoopbackAllowList, type Resolver } from './addressCheck';

export interface EgressProxy {
  /** `http://127.0.0.1:PORT`, for yt-dlp's --proxy. */
  url: string;
  /** Tunnels refused so far (tests read it). */
  refused: Array<{ host: string; reason: string }>;
  close(): Promise<void>;
}

/**
 * The one way out for link import: a loopback-only HTTP CONNECT proxy that yt-dlp is told to use.
 * Each tunnel's host is resolved and checked here, and the socket opened to the checked address,
 * so redirects (every hop opens a new tunnel) and DNS rebinding (no second lookup) cannot reach
 * loopback, private, link-local or metadata addresses. Only CONNECT on port 443 (any port while a test
 * allow list is set) is served: plain-HTTP forwarding is refused, since only https links are imported.
 */
export async function startEgressProxy(opts: { allow?: LoopbackAllowList; resolve?: Resolver } = {}): Promise<EgressProxy> {
  const refused: EgressProxy['refused'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    refused.push({ host: req.headers.host ?? '', reason: 'plain HTTP is not forwarded' });
    res.writeHead(403, { connection: 'close' }).end('Only https links can be imported.');
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const refuse = (host: string, reason: string) => {
      refused.push({ host, reason });
      client.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    };
    let target: URL;
    try {
      target = new URL(`https://${req.url ?? ''}`);
    } catch {
      return refuse(req.url ?? '', 'not a host:port');
    }
    const port = Number(target.port || 443);
    const host = target.hostname;
    // Tests (an allow list is set) serve on ephemeral ports; in use only the https port is reached.
    const testing = (opts.allow?.size ?? 0) > 0;
    if (port !== 443 && !testing) return refuse(host, `port ${port} is not https`);
    checkHost(host, port, opts).then(
      (address) => {
        if (client.destroyed) return;
        const upstream = net.connect({ host: address, port });
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => {
          if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        });
        client.on('close', () => upstream.destroy());
      },
      (err: unknown) => refuse(host, err instanceof RefusedAddressError ? err.reason : String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
