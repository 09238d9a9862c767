import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const foldersOf = (dir) =>
  fs
    .readdirSync(path.join(import.meta.dirname, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// The app's screens are its routed pages, one folder each under src/app/screens.
const SCREENS = foldersOf('src/app/screens');
// What may import a screen: the router (its lazy routes) and the stylesheet list. Every other app
// folder is shared by screens (media, upload, ui, state, ...) and imports none.
const SHARED_APP_FOLDERS = foldersOf('src/app').filter((f) => !['screens', 'routing', 'styles'].includes(f));

/**
 * Import boundaries (import-x/no-restricted-paths): files under `target` may not import from `from`
 * (`except` is relative to `from`). Paths are from the repository root.
 */
export const zones = [
  // No screen imports another screen: what two screens share lives in a shared folder (src/app/README.md).
  ...SCREENS.map((screen) => ({
    target: `./src/app/screens/${screen}`,
    from: './src/app/screens',
    except: [`./${screen}`],
    message: 'A screen does not import another screen: move what both use to a shared folder (see src/app/README.md, Layout).',
  })),
  {
    target: './src/app/screens/*.{ts,tsx}',
    from: SCREENS.map((screen) => `./src/app/screens/${screen}`),
    message: 'A screen does not import another screen: move what both use to a shared folder (see src/app/README.md, Layout).',
  },
  {
    target: SHARED_APP_FOLDERS.map((folder) => `./src/app/${folder}`),
    from: './src/app/screens',
    message: 'Shared app code does not import a screen (only src/app/routing and src/app/styles do).',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'public/**',
      'coverage/**',
      'tests/e2e/screenshots/**',
      'tests/bench/out/**',
      'tests/browser/dist/**',
      'tests/browser/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The engine is a framework-free library: no React, no valtio, no Radix, nothing from the app.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react/*', 'valtio', 'valtio/*', 'radix-ui', '@radix-ui/*'],
              message: 'src/engine must stay framework-free.',
            },
            { group: ['**/app/**', '../app/*', '../../app/*'], message: 'src/engine must not import from src/app.' },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by browser and server: no Node or DOM-only imports.
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '**/server/**', '**/app/**'], message: 'src/contract is isomorphic.' }] },
      ],
    },
  },
  {
    // A module's routes are thin: they parse a request, call their module's service and reply. The
    // database (repositories) and the outside world (adapters: storage, media tools, providers) are
    // reached through services only; type-only imports count too.
    files: ['src/server/modules/*/*.routes.ts', 'src/server/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '\\.repository$', message: "Routes reach the database through their module's service, not a repository." },
            {
              regex: '(^|/)adapters/',
              message: "Routes reach storage, media tools and providers through their module's service, not an adapter.",
            },
            { regex: '(^|/)db/', message: "Routes reach the database through their module's service." },
          ],
        },
      ],
    },
  },
  {
    // A migration is frozen: what it does must not change when live code does.
    files: ['src/server/db/migrations/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./', message: 'A migration imports nothing of the live code (copy what it needs into it).' }] },
      ],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }] },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
);
