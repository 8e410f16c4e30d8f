// One gate: type-aware lint (floating promises, unsafe any) plus the import boundaries of DESIGN §3.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Folders that must never import the API server: browsers and CLIs talk to it over HTTP only. */
const NOT_THE_SERVER = {
  patterns: [
    { group: ['**/apps/server/**', '@rehearse/server', '@rehearse/server/*'], message: 'Talk to the server through @rehearse/api-client.' },
  ],
};

/**
 * The API process never loads browser code (DESIGN §3): not Playwright, and not our packages that
 * drive a browser. It starts them as programs (apps/server/src/processes/programs.ts); the types of
 * what they say over IPC live in @rehearse/codegen. Type-only imports load nothing and stay allowed.
 */
const API_PROCESS_LOADS_NO_BROWSER = [
  {
    group: ['playwright', 'playwright/*', 'playwright-core', 'playwright-core/*', '@playwright/*'],
    message: 'Browsers live in worker and recorder processes, never in the API process.',
  },
  {
    group: [
      '@rehearse/cli',
      '@rehearse/cli/*',
      '@rehearse/recorder',
      '@rehearse/recorder/*',
      '@rehearse/runner',
      '@rehearse/runner/*',
      '**/packages/cli/**',
      '**/packages/recorder/**',
      '**/packages/runner/**',
    ],
    allowTypeImports: true,
    message: 'The API process starts the runner and the recorder as programs (processes/programs.ts) and never loads their code.',
  },
];

/** SQL only in repositories (`*.repo.ts`) and the database module: services call repositories. */
const SQL_ONLY_IN_REPOSITORIES = [
  {
    group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema', '**/db/schema.js'],
    message: 'SQL lives in *.repo.ts: call the domain repository (or add a method to it).',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-types/**', 'data/**', '**/public/**', 'bench/results/**', 'bench/.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // No import cycles: a cycle makes load order decide what a module sees, and hides layering.
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['*/*/tsconfig.json', 'apps/web/e2e/tsconfig.json', 'bench/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Config files and plain scripts sit outside every tsconfig: lint them without type information.
    files: ['**/*.js', '**/*.mjs', '**/*.config.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { console: 'readonly', process: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['**/*.test.ts', '**/testing/**', 'bench/**', '**/e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '@rehearse/*', '**/apps/**', '**/packages/**'],
              message: 'The contract imports nothing of ours and no Node built-ins.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**', 'packages/api-client/**', 'packages/cli/**', 'packages/recorder/**', 'apps/demo-shop/**'],
    rules: { 'no-restricted-imports': ['error', NOT_THE_SERVER] },
  },
  {
    // The recorder builds on the runner; only packages/cli composes the two into `rehearse`.
    files: ['packages/runner/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...NOT_THE_SERVER.patterns,
            {
              group: [
                '@rehearse/recorder',
                '@rehearse/recorder/*',
                '@rehearse/cli',
                '@rehearse/cli/*',
                '**/packages/recorder/**',
                '**/packages/cli/**',
              ],
              message: 'The recorder builds on the runner: compose the two in packages/cli, never by importing the recorder here.',
            },
          ],
        },
      ],
    },
  },
  {
    // The rules of hooks and complete effect dependencies. Version 7's recommended set adds the React
    // Compiler's rules (set-state-in-effect, refs, immutability, …); the app does not pass them yet, so
    // only these two are on.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Browser end-to-end tests start the real server in-process through its test helper.
  { files: ['apps/web/e2e/**'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...API_PROCESS_LOADS_NO_BROWSER, ...SQL_ONLY_IN_REPOSITORIES] }] },
  },
  {
    // Repositories and the database module are where SQL lives.
    files: ['apps/server/src/**/*.repo.ts', 'apps/server/src/db/**'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: API_PROCESS_LOADS_NO_BROWSER }] },
  },
);
