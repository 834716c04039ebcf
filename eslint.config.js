import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';
import tseslint from 'typescript-eslint';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const webFeatures = fs.existsSync(featuresDir) ? fs.readdirSync(featuresDir) : [];

/** Imports a workspace may not make: lower layers never reach up. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/** apps/server/src's rooms, lowest first: a room never imports one after it. */
const serverRooms = [
  'db',
  'cache',
  'policies',
  'queries',
  'presenters',
  'auth',
  'limits',
  'http',
  'mail',
  'commands',
  'events',
  'realtime',
  'metrics',
  'plugins',
  'routes',
  'seed',
];
/** Upward imports still made, each with its reason: the list only shrinks. */
const upwardAllowed = {
  // The cached pages hold presented JSON, read through the queries.
  'apps/server/src/cache/content-cache.ts': ['queries', 'presenters', 'http'],
  // Kept tags are kept as the API shows them.
  'apps/server/src/cache/question-tags.ts': ['presenters'],
  // Whether a post waits for approval depends on the author's approved posts.
  'apps/server/src/policies/post-queue.ts': ['queries'],
  // Issue 33 item 5 moves presenting out of the queries.
  'apps/server/src/queries/**/*.ts': ['presenters'],
  // The socket handshake refuses cross-site requests as the HTTP hooks do.
  'apps/server/src/realtime/realtime.ts': ['plugins'],
};
/** Every room may throw an HttpError; the queries read list cursors. */
const serverFoundations = ['!**/http/http-error.ts', '!**/http/list-cursor.ts'];
const serverRoomPatterns = (room, above, extra = []) => [
  { group: ['@porpoise/web', '**/apps/web/**'], message: 'the server does not import the web app' },
  ...above.map((other) => ({
    group: [`**/${other}/**`, ...(other === 'http' ? serverFoundations : [])],
    message: `${room} sits below ${other} (eslint.config.js, serverRooms): move what both need down`,
  })),
  ...(extra.length > 0 ? [{ group: extra, message: 'config.ts sits below every room' }] : []),
];

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
    // Classic scripts the page loads as they are (the theme's boot script).
    files: ['apps/web/src/theme-boot.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
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
  // The server's rooms, lowest first (serverRooms above): a room imports only rooms below
  // it. Files at src/ (config.ts, app.ts, server.ts...) stand outside the order.
  ...serverRooms.map((room, index) => ({
    files: [`apps/server/src/${room}/**/*.ts`],
    ignores: ['apps/server/src/**/*.test.ts', ...Object.keys(upwardAllowed)],
    rules: restrict(serverRoomPatterns(room, serverRooms.slice(index + 1))),
  })),
  ...Object.entries(upwardAllowed).map(([file, allowed]) => {
    const room = file.split('/')[3];
    const above = serverRooms.slice(serverRooms.indexOf(room) + 1).filter((other) => !allowed.includes(other));
    return {
      files: [file],
      ignores: ['apps/server/src/**/*.test.ts'],
      rules: restrict(serverRoomPatterns(room, above)),
    };
  }),
  {
    // config.ts is read by every room (db/client.ts included): it takes only pure helpers.
    files: ['apps/server/src/config.ts'],
    rules: restrict(
      serverRoomPatterns(
        'config.ts',
        serverRooms.filter((room) => room !== 'auth'),
        ['**/auth/**', '!**/auth/password.ts', '!**/auth/client-address.ts'],
      ),
    ),
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
          // Sessions end as a password change ends them: a command returns sessionsEnded.
          selector:
            "MemberExpression[object.property.name='realtime'][property.name='endSession'], MemberExpression[object.property.name='sessions'][property.name='forget']",
          message: 'only the event processor (src/events/processor.ts) ends sessions: return a sessionsEnded event',
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
