import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../src/server/adapters/db/database';
import { migrateToLatest } from '../../../src/server/db/migrate';

const REPO = path.resolve(import.meta.dirname, '../../..');

/**
 * What the template depends on: the PGlite and pgvector builds and the migrations (migrations/frozen/
 * too). A change to any of them makes a new template rather than reusing a stale one.
 */
function templateKey(): string {
  const hash = crypto.createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']) {
    hash.update(fs.readFileSync(path.join(REPO, 'node_modules', pkg, 'package.json')));
  }
  const migrations = path.join(REPO, 'src/server/db');
  for (const file of [
    'migrate.ts',
    ...fs
      .readdirSync(path.join(migrations, 'migrations'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => `migrations/${f}`),
  ]) {
    hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

let building: Promise<string> | null = null;

/** The template's folder, made on first use on this machine: a PGlite cluster initialised and migrated to the latest schema. */
function template(): Promise<string> {
  building ??= (async () => {
    const target = path.join(os.tmpdir(), `clipseek-pglite-template-${templateKey()}`);
    if (fs.existsSync(path.join(target, 'PG_VERSION'))) return target;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-pglite-template-build-'));
    try {
      const database = await openDatabase({ dataDir: work, databaseUrl: null });
      try {
        await migrateToLatest(database.db as never);
      } finally {
        await database.close();
      }
      try {
        fs.renameSync(path.join(work, 'pg'), target);
      } catch (err) {
        // another test process made it first: theirs is the same
        if (!fs.existsSync(path.join(target, 'PG_VERSION'))) throw err;
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    return target;
  })();
  return building;
}

/**
 * Gives a new DATA_DIR its embedded database as a copy of the template, unless it has one. A server
 * on a new DATA_DIR otherwise runs PostgreSQL's initdb and every migration first, ~6 s of CPU, and
 * the suite starts dozens; the server then finds its schema current, as after any restart.
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  const pgDir = path.join(dataDir, 'pg');
  if (fs.existsSync(pgDir)) return;
  const from = await template();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.cpSync(from, pgDir, { recursive: true });
}
