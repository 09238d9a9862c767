import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token-signing secret: JWT_SECRET when set (required for several API machines), else one
 * generated on first start and kept in DATA_DIR, so `npm start` needs no configuration.
 */
export function loadSigningSecret(dataDir: string, configured: string | null): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The admin bridge key derived from the secret (see http/admin.routes.ts). */
export const adminKeyFile = (dataDir: string) => path.join(dataDir, 'server.json');
