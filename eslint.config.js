import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import tseslint from 'typescript-eslint';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const webFeatures = fs.existsSync(featuresDir) ? fs.readdirSync(featuresDir) : [];

/** Imports a workspace may not make: lower layers never reach up. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.test-results/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins, hooks and handlers are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['packages/core/**'],
    rules: restrict([
      { group: ['@porpoise/server', '@porpoise/web', '**/apps/**'], message: 'core imports neither app' },
    ]),
  },
  {
    files: ['apps/server/**'],
    rules: restrict([
      { group: ['@porpoise/web', '**/apps/web/**'], message: 'the server does not import the web app' },
    ]),
  },
  // docs/style.md, "The write path": the event processor alone emits socket events and drops
  // cached reads; routes and commands return events to it.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/events/processor.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.property.name='realtime'][property.name=/^emit/]",
          message: 'only the event processor (src/events/processor.ts) emits: return events from the command',
        },
        {
          selector: "MemberExpression[object.property.name='contentCache'][property.name='invalidate']",
          message: 'only the event processor (src/events/processor.ts) invalidates cached reads',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([
        { group: ['@porpoise/server', '**/apps/server/**'], message: 'the web app talks to the server over HTTP only' },
      ]),
    },
  },
  // bulletproof-react's rule: a feature never imports another feature, and nothing imports app/.
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**`],
    rules: restrict([
      { group: ['**/app/**'], message: 'features do not import the app layer' },
      ...webFeatures
        .filter((other) => other !== feature)
        .map((other) => ({ group: [`**/features/${other}/**`], message: 'features do not import each other' })),
    ]),
  })),
  {
    files: ['apps/web/src/{components,hooks,lib,config}/**'],
    rules: restrict([
      { group: ['**/features/**', '**/app/**'], message: 'shared code does not import features or the app' },
    ]),
  },
);
