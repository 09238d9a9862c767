import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering rules of eslint.config.js (README, Layout), checked in `npm test` as well as by
// `npx eslint`: only the import rules run here, without type information, so this takes seconds.
const root = path.resolve(import.meta.dirname, '..');
const RULES = new Set(['no-restricted-imports', 'import-x/no-restricted-paths']);
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

/** The messages of the import rules for `file`'s text with `line` added on top. */
async function withImport(file: string, line: string) {
  const text = `${line}\n${fs.readFileSync(path.join(root, file), 'utf8')}`;
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId && RULES.has(m.ruleId)).map((m) => m.message);
}

describe('layering', () => {
  it('holds over the tree: routes, HTTP plumbing, migrations, the engine, the contract and the app', async () => {
    const results = await eslint.lintFiles([
      'src/server/modules/*/*.routes.ts',
      'src/server/http/*.ts',
      'src/server/db/migrations/*.ts',
      'src/engine/**/*.ts',
      'src/contract/**/*.ts',
      'src/app/**/*.{ts,tsx}',
    ]);
    const broken = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`));
    expect(broken).toEqual([]);
    expect(results.length).toBeGreaterThan(100);
  }, 60_000);

  it('refuses a route importing a repository, an adapter or the database schema', async () => {
    const route = 'src/server/modules/search/search.routes.ts';
    expect(await withImport(route, "import { SearchRepository } from './search.repository';")).toHaveLength(1);
    expect(await withImport(route, "import type { MediaRow } from '../libraries/media.repository';")).toHaveLength(1);
    expect(await withImport(route, "import { probe } from '../../adapters/media/ffprobe';")).toHaveLength(1);
    expect(await withImport(route, "import type { UsersTable } from '../../db/schema';")).toHaveLength(1);
    expect(await withImport(route, "import type { SearchService } from './search.service';")).toEqual([]);
  }, 30_000);

  it('refuses a screen importing another screen, and shared app code importing a screen', async () => {
    const screen = 'src/app/screens/workspace/WorkspaceScreen.tsx';
    expect(await withImport(screen, "import { FolderList } from '../library/FolderList';")).toHaveLength(1);
    expect(await withImport(screen, "import { LibraryCard } from '../../libraries/LibraryCard';")).toEqual([]);
    expect(await withImport('src/app/media/mediaInfo.ts', "import { parseQuery } from '../screens/search/searchQuery';")).toHaveLength(1);
  }, 30_000);

  it('refuses a migration importing live code', async () => {
    const migration = 'src/server/db/migrations/0001_accounts.ts';
    expect(await withImport(migration, "import { blobKeys } from '../../modules/storage/blobKeys';")).toHaveLength(1);
  }, 30_000);
});
