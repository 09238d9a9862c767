import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's second recommended profile (19 MiB, t=2, p=1). */
const OPTIONS = {
  algorithm: 2 /* Argon2id; the const enum cannot be imported under isolatedModules */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hash(password, OPTIONS),
  verify: async (h, password) => {
    try {
      return await verify(h, password);
    } catch {
      return false;
    }
  },
};
