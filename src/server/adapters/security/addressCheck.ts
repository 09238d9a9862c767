import dns from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where link import may connect. Every address is checked, literal or resolved, before a socket is
 * opened: only public unicast addresses pass. Loopback, private (RFC 1918, unique-local),
 * link-local (which holds the cloud metadata address 169.254.169.254), carrier-grade NAT
 * (Alibaba's metadata 100.100.100.200), unspecified, broadcast, multicast, reserved, and IPv6
 * forms that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are refused.
 */
export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`Refused to connect to ${host}: ${reason}`);
    this.name = 'RefusedAddressError';
  }
}

/** The range name ipaddr.js gives an address ('unicast' for public), IPv4-mapped IPv6 read as its IPv4. */
export function addressRange(address: string): string {
  let a = ipaddr.parse(address);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.range();
}

/** Whether an IP address (already parsed text) is public unicast. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return addressRange(address) === 'unicast';
}

/**
 * Hosts a test may reach on loopback, as `host:port` written exactly as in the URL (for example
 * `127.0.0.1:43125`). Anything else on loopback, including the same port under another spelling
 * such as `localhost`, stays refused.
 */
export type LoopbackAllowList = ReadonlySet<string>;

export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((r) => r.address);

/** The host of a URL without IPv6 brackets. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves `host` and returns the one address to connect to, or throws RefusedAddressError. Every
 * address the name resolves to must be public (one private answer refuses the host), so a
 * rebinding answer list cannot slip a private address in; the caller connects to the returned
 * address, never resolving again.
 */
export async function checkHost(host: string, port: number, opts: { allow?: LoopbackAllowList; resolve?: Resolver } = {}): Promise<string> {
  const bare = bareHost(host).toLowerCase();
  const allowed = opts.allow?.has(`${host.toLowerCase()}:${port}`) ?? false;
  let addresses: string[];
  if (net.isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(bare);
    } catch {
      throw new RefusedAddressError(host, 'the name does not resolve');
    }
  }
  if (!addresses.length) throw new RefusedAddressError(host, 'the name does not resolve');
  for (const a of addresses) {
    if (!ipaddr.isValid(a)) throw new RefusedAddressError(host, `not an address (${a})`);
    const range = addressRange(a);
    if (range === 'unicast') continue;
    if (allowed && range === 'loopback') continue;
    throw new RefusedAddressError(host, `${a} is a ${range} address`);
  }
  return addresses[0]!;
}
