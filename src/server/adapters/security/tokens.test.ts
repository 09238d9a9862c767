import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenSigner } from './tokens';

const SECRET = 'unit-test-secret-0123456789abcdefghijklmnopqrstuv';

describe('TokenSigner', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies its own session token, the same claims every time', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ sub: 'u1', email: 'a@example.com', ver: 3 }, 60);
    const first = await signer.verify(token);
    expect(first).toMatchObject({ sub: 'u1', email: 'a@example.com', ver: 3 });
    expect(await signer.verify(token)).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('refuses a token signed with another secret, and a tampered one, even after a good one was seen', async () => {
    const signer = new TokenSigner(SECRET);
    const good = await signer.sign({ sub: 'u1', email: 'a@example.com', ver: 1 }, 60);
    await signer.verify(good);
    const foreign = await new TokenSigner(`${SECRET}-other`).sign({ sub: 'u1', email: 'a@example.com', ver: 1 }, 60);
    await expect(signer.verify(foreign)).rejects.toMatchObject({ code: 'token_invalid' });
    const [h, p, s] = good.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'u2' })).toString('base64url')}.${s}`;
    await expect(signer.verify(forged)).rejects.toMatchObject({ code: 'token_invalid' });
  });

  it('refuses a token once it expires, although it was verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign({ sub: 'u1', email: 'a@example.com', ver: 1 }, 60);
    await signer.verify(token);
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    await expect(signer.verify(token)).resolves.toMatchObject({ sub: 'u1' });
    vi.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    await expect(signer.verify(token)).rejects.toMatchObject({ code: 'token_expired' });
  });

  it('preview tokens are not session tokens', async () => {
    const signer = new TokenSigner(SECRET);
    const preview = await signer.signPreview('u1', 'lib1', 60);
    await expect(signer.verifyPreview(preview)).resolves.toEqual({ userId: 'u1', libraryId: 'lib1' });
    await expect(signer.verify(preview)).rejects.toMatchObject({ code: 'token_invalid' });
  });
});
