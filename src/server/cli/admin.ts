// Support tooling. Usage:
//   npm run admin -- impersonate someone@example.com --by support@example.com [--minutes 30]
// Prints a sign-in link (and the token) that opens the app as that user, with the impersonation banner.
// Works whether or not the server is running: when it holds the data directory, the command asks it
// over loopback (keyed by the secret in DATA_DIR); otherwise it opens the database itself.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { decode, encode } from '@msgpack/msgpack';
import { impersonateLink, MSGPACK, type Envelope } from '../../contract';
import { readLockOwner } from '../adapters/db/dataDirLock';
import { loadConfig } from '../config';
import { adminKeyFile } from '../secrets';

const USAGE = 'Usage: npm run admin -- impersonate <user email> --by <support email> [--minutes 30]';

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { by: { type: 'string' }, minutes: { type: 'string', default: '30' } },
  });
  const [command, email] = positionals;
  if (command !== 'impersonate' || !email || !values.by) throw new Error(USAGE);
  const minutes = Number(values.minutes);
  const config = loadConfig();
  let out: { link: string; token: string; expiresAt: string };

  const bridge = adminKeyFile(config.dataDir);
  if (!config.databaseUrl && readLockOwner(config.dataDir) !== null && fs.existsSync(bridge)) {
    const { url, adminKey } = JSON.parse(fs.readFileSync(bridge, 'utf8')) as { url: string; adminKey: string };
    const res = await fetch(`${url}/admin/impersonate`, {
      method: 'POST',
      headers: { 'content-type': MSGPACK, accept: MSGPACK, 'x-admin-key': adminKey },
      body: encode({ email, by: values.by, minutes }),
    });
    const env = decode(new Uint8Array(await res.arrayBuffer())) as Envelope<typeof out>;
    if (env.error || !env.data) throw new Error(env.error?.message ?? `server answered ${res.status}`);
    out = env.data;
  } else {
    const { startServer } = await import('../main');
    const server = await startServer({ ROLE: 'worker' });
    try {
      const r = await server.accounts.impersonate(email, values.by, minutes);
      out = { token: r.token, link: impersonateLink(config.appUrl, r.token), expiresAt: r.expiresAt.toISOString() };
    } finally {
      await server.close();
    }
  }
  console.log(`Impersonating ${email} as ${values.by} until ${out.expiresAt}.\nSign-in link: ${out.link}\nToken: ${out.token}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
