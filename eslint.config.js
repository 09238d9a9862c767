import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
);
