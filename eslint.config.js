// One gate: type-aware lint (floating promises, unsafe any) plus the import boundaries of DESIGN §3.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import rehearse from './eslint-rules/allowed-imports.js';

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
    files: ['**/*.js', '**/*.mjs', '**/*.config.ts', 'vitest.shared.ts'],
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
    // The rules of hooks and complete effect dependencies. Version 7's recommended set adds the React
    // Compiler's rules (set-state-in-effect, refs, immutability, …); the app does not pass them yet, so
    // only these two are on.
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Each room imports only what the DEPS.jsonc of its folder allows (issue 46): the API process loads
    // no browser, SQL stays in repositories, child processes go through packages/processes, and
    // folders import only the folders below them. Lists and their format: eslint-rules/allowed-imports.js.
    files: ['apps/**', 'packages/**'],
    plugins: { rehearse },
    rules: { 'rehearse/allowed-imports': 'error' },
  },
);
