import { describe, expect, it } from 'vitest';
import { checkHost, isPublicAddress, RefusedAddressError, type Resolver } from './addressCheck';

const neverResolve: Resolver = () => Promise.reject(new Error('no DNS in unit tests'));
const answers =
  (map: Record<string, string[]>): Resolver =>
  (host) =>
    Promise.resolve(map[host] ?? []);

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.10', 'private'],
    ['fd00::1', 'unique-local'],
    ['169.254.169.254', 'link-local (AWS, GCP, Azure metadata)'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'AWS metadata over IPv6'],
    ['100.100.100.200', 'carrier-grade NAT (Alibaba metadata)'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['198.18.0.1', 'benchmarking'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('checkHost', () => {
  it('refuses literal loopback, private and metadata hosts without resolving anything', async () => {
    for (const host of ['127.0.0.1', '[::1]', '10.0.0.1', '169.254.169.254', '[fd00:ec2::254]', '0.0.0.0']) {
      await expect(checkHost(host, 443, { resolve: neverResolve }), host).rejects.toBeInstanceOf(RefusedAddressError);
    }
  });

  it('refuses a name when any of its addresses is private (one rebinding answer is enough)', async () => {
    const resolve = answers({ 'mixed.example': ['93.184.216.34', '127.0.0.1'], localhost: ['127.0.0.1', '::1'] });
    await expect(checkHost('mixed.example', 443, { resolve })).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    await expect(checkHost('localhost', 443, { resolve })).rejects.toBeInstanceOf(RefusedAddressError);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(checkHost('nowhere.example', 443, { resolve: answers({}) })).rejects.toThrow(/does not resolve/);
  });

  it('returns the checked public address, which is the one connected to', async () => {
    const resolve = answers({ 'video.example': ['93.184.216.34', '2606:2800:220:1::1'] });
    expect(await checkHost('video.example', 443, { resolve })).toBe('93.184.216.34');
  });

  it('lets a test reach only the loopback host:port it allows, as written', async () => {
    const allow = new Set(['127.0.0.1:8443']);
    const resolve = answers({ localhost: ['127.0.0.1'] });
    expect(await checkHost('127.0.0.1', 8443, { allow, resolve })).toBe('127.0.0.1');
    await expect(checkHost('127.0.0.1', 8444, { allow, resolve })).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(checkHost('localhost', 8443, { allow, resolve })).rejects.toBeInstanceOf(RefusedAddressError);
    // The allowance is for loopback only: it never opens a private address.
    await expect(checkHost('10.0.0.1', 8443, { allow: new Set(['10.0.0.1:8443']), resolve })).rejects.toBeInstanceOf(RefusedAddressError);
  });
});
