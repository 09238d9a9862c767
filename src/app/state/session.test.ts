import { describe, expect, it } from 'vitest';
import { queryClient } from '../api/queryClient';
import { adoptToken } from './session';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const tokenFor = (sub: string, iat = Date.now() / 1000) =>
  `${b64url({ alg: 'HS256' })}.${b64url({ sub, email: `${sub}@example.com`, iat, exp: iat + 3600 })}.sig`;

describe('session', () => {
  it("keeps the screens' fetched data through a refreshed token, and drops it for another account or none", () => {
    adoptToken(tokenFor('ada'));
    queryClient.setQueryData(['folder', 'lib-of-ada'], { files: ['private'] });
    adoptToken(tokenFor('ada', Date.now() / 1000 + 60));
    expect(queryClient.getQueryData(['folder', 'lib-of-ada'])).toEqual({ files: ['private'] });
    // Support staff impersonating, or another person signing in on this device.
    adoptToken(tokenFor('bob'));
    expect(queryClient.getQueryData(['folder', 'lib-of-ada'])).toBeUndefined();
    queryClient.setQueryData(['folder', 'lib-of-bob'], { files: [] });
    adoptToken(null);
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
