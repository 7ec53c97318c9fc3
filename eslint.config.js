// Lint: typescript-eslint and react-hooks, Prettier for layout, and the rooms' import boundaries
// (electron/README.md, docs/lint.md). scripts/lintBoundaries.test.ts proves that a crossed boundary fails.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// Boundaries are matched on the import string as the code writes it: from inside a room, a relative
// path that climbs one or more levels and lands in another room, with or without going through
// `electron/` ('../service/session', '../../electron/service/session'); from an entry file in
// electron/ itself, './room/...'. scripts/lintBoundaries.test.ts checks that every relative import in
// the tree is written in this normalized form, so './../service' cannot slip past.
const into = (names) => `^(\\.\\./)+(electron/)?(${names.join('|')})(/|$)`;
const ban = (names, message) => ({ regex: into(names), message });
const banFromTop = (names, message) => ({ regex: `^\\./(${names.join('|')})(/|$)`, message });

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];
const TESTING_ONLY = 'electron/testing is for tests, e2e and the bench only.';
const testingOnly = ban(['testing'], TESTING_ONLY);
const testingOnlyFromTop = banFromTop(['testing'], TESTING_ONLY);
// The entry files are the top of the tree: nothing imports them (serve.ts is the CLI's `serve`).
const entries = ban(['main', 'ipc', 'preload'], 'Nothing imports an entry file.');

// Electron's IPC objects have one home each. A default or namespace import would hide which of them a
// file uses, so those are refused too (importNames reports `import * as` on its own).
const electronIpc = {
  name: 'electron',
  importNames: ['default', 'ipcMain', 'ipcRenderer', 'contextBridge'],
  message: 'Only electron/ipc.ts touches ipcMain, only electron/preload.ts touches contextBridge and ipcRenderer.',
};

const nodeBuiltins = {
  regex: `^(node:|(${builtinModules.filter((name) => !name.startsWith('_')).join('|')})(/|$))`,
  message: 'shared/ and renderer/ run without Node (the renderer in a sandboxed page).',
};
const electronPackages = { regex: '^electron(-log)?(/|$)', message: 'shared/ and renderer/ run without Electron.' };
const sharedOnly = {
  regex: `${into(['electron', 'renderer'])}|^react(-dom)?(/|$)`,
  message: 'shared/ imports neither electron/ nor renderer/ (nor React): both sides build on it.',
};

const rendererOnly = ban(
  ['electron', 'e2e', 'bench', 'scripts'],
  'renderer/ imports only shared/ and its own modules; it reaches the engine through shared/api.ts.',
);

// Plan kinds as modules (docs/plan-kinds.md): what a kind does and says is a row of its table
// (shared/planKinds.ts planKindOf; renderer/view/bulkModes.ts for a bulk run; the apply's dispatch in
// electron/replace/kinds/index.ts), so a new kind is a new row. A `mode` or `kind` (a variable, a
// property, an optional one) compared to a kind's string, either way round, or switched on with a
// kind's string as a case, is the branch the table replaces. The names are appliedKindSchema's
// (shared/planSchema.ts); scripts/lintPlanKinds.test.ts fails when a kind is missing here.
const PLAN_KIND_NAMES = ['replace', 'force', 'repair', 'discard_staging', 'adopt', 'restore'];
const KIND_TABLES = ['shared/planKinds.ts', 'renderer/view/bulkModes.ts', 'electron/replace/kinds/index.ts'];
const kindString = `/^(${PLAN_KIND_NAMES.join('|')})$/`;
const kindNamed = (node) =>
  `:matches([${node}.name=/^(mode|kind)$/], [${node}.property.name=/^(mode|kind)$/], [${node}.expression.property.name=/^(mode|kind)$/])`;
const KIND_MESSAGE =
  "A plan's kind is not compared to its string: read a fact of its row (shared/planKinds.ts planKindOf, renderer/view/bulkModes.ts), or add one.";
const planKindComparisons = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/]${kindNamed('left')}[right.value=${kindString}]`, message: KIND_MESSAGE },
  { selector: `BinaryExpression[operator=/^[!=]==?$/]${kindNamed('right')}[left.value=${kindString}]`, message: KIND_MESSAGE },
  { selector: `SwitchStatement${kindNamed('discriminant')} > SwitchCase[test.value=${kindString}]`, message: KIND_MESSAGE },
];

/** One no-restricted-imports rule: the patterns a file may not import, plus Electron's IPC objects. */
const restrict = (patterns, paths = [electronIpc]) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });

/**
 * A room of electron/: what it may not import. Its tests are held to the same boundary but may use
 * electron/testing, which the room's own code may not.
 */
const room = (name, banned, why) => [
  { files: [`electron/${name}/**`], rules: restrict([ban(name === 'cli' ? banned : [...banned, 'serve'], why), testingOnly, entries]) },
  { files: TESTS.map((glob) => `electron/${name}/${glob}`), rules: restrict([ban(banned, why), entries]) },
];

/** What no file of electron/cli/ (tests aside) imports: the desktop shell, and the engine rooms the service drives. */
const cliBans = [
  ban(['shell', 'web'], 'The CLI does not import the desktop shell.'),
  ban(
    ['engine', 'replace', 'backup', 'history', 'operations'],
    'The CLI drives the service through one door (electron/cli/door.ts): it imports no engine room.',
  ),
  testingOnly,
  entries,
];
const CLI_AGENT = 'The CLI reaches an agent only through its Session, with the one connector electron/cli/hostDoor.ts hands it.';
const agentFromCli = ban(['remote/agentConnection', 'remote/hostConnector'], CLI_AGENT);
const agentClientFromCli = { regex: '^\\./agentClient$', message: CLI_AGENT };
/** The connector and the module it loads the connection through: the only CLI files that may. */
const CLI_AGENT_FILES = ['electron/cli/hostDoor.ts', 'electron/cli/agentClient.ts'];

// no-restricted-imports reads import and export declarations only: an import() would be an edge
// between rooms that lint cannot see. Only a sibling in the same folder may be loaded lazily (the
// CLI's commands: './inspectCommand'), which cannot cross a room; tests, e2e and the bench may use any.
const dynamicImportSelector = {
  selector: "ImportExpression:not([source.type='Literal'][source.value=/^\\.\\/[A-Za-z0-9]+$/])",
  message: 'Import statically: a dynamic import() is invisible to the boundary rules.',
};
const agentClientSelector = { selector: "ImportExpression[source.value='./agentClient']", message: CLI_AGENT };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'playwright-report/', 'build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // The path, URL and log-line rules exist to find control characters: matching them is the point.
      'no-control-regex': 'off',
      'no-restricted-imports': ['error', { paths: [electronIpc] }],
    },
  },
  {
    // A plan's kind is read from its table, never compared to its string (planKindComparisons).
    files: ['electron/**', 'shared/**', 'renderer/**'],
    ignores: TESTS,
    rules: { 'no-restricted-syntax': ['error', dynamicImportSelector, ...planKindComparisons] },
  },
  {
    // The tables themselves: the one place a kind's string may be read.
    files: KIND_TABLES,
    rules: { 'no-restricted-syntax': ['error', dynamicImportSelector] },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter: `async ({}, use)` is how a
    // fixture that needs none is written.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },

  {
    files: ['shared/**'],
    rules: restrict([nodeBuiltins, electronPackages, sharedOnly]),
  },
  {
    // Tests run in Node and may hold a rule to Node's own behaviour (path.posix, path.win32).
    files: TESTS.map((glob) => `shared/${glob}`),
    rules: restrict([electronPackages, sharedOnly]),
  },
  {
    files: ['renderer/**'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['renderer/**'],
    rules: {
      ...restrict([nodeBuiltins, electronPackages, rendererOnly]),
      // TanStack Virtual's useVirtualizer cannot be memoized by the React Compiler, which we do not use:
      // the warning says only that the compiler would skip those components.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    // renderer/testing holds the component tests' sample data: the app itself never imports it.
    files: ['renderer/**'],
    ignores: [...TESTS, 'renderer/testing/**'],
    rules: restrict([
      nodeBuiltins,
      electronPackages,
      rendererOnly,
      { regex: '^(\\.\\.?/)+testing(/|$)', message: 'renderer/testing is for the renderer tests only.' },
    ]),
  },

  ...room(
    'engine',
    ['replace', 'operations', 'service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'history', 'backup', 'watch'],
    'The engine reads the disk; it imports no use case, shell, server or CLI.',
  ),
  ...room(
    'replace',
    ['operations', 'service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'history', 'backup', 'watch'],
    'replace/ imports the engine and shared/ only.',
  ),
  ...room(
    'history',
    ['replace', 'operations', 'service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'backup', 'watch'],
    'history/ reads and appends the journal; it imports the engine and shared/ only.',
  ),
  ...room(
    'backup',
    ['operations', 'service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'history', 'watch'],
    'backup/ keeps and restores what applies remove; it imports the engine, replace/ and shared/ only.',
  ),
  ...room(
    'operations',
    ['service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'watch'],
    'The use cases know no adapter (service, server, shell, CLI).',
  ),
  ...room('service', ['demo', 'web', 'server', 'shell', 'cli', 'remote'], 'The service knows no transport (server, shell, CLI).'),
  ...room(
    'watch',
    ['engine', 'replace', 'operations', 'service', 'demo', 'web', 'server', 'shell', 'cli', 'remote', 'history', 'backup'],
    'watch/ tells when folders change on disk: it imports shared/ only; the service wires it.',
  ),
  ...room(
    'demo',
    ['operations', 'service', 'web', 'server', 'shell', 'cli', 'remote', 'backup', 'watch'],
    'The demo generator writes files; it knows no adapter.',
  ),
  ...room(
    'web',
    ['engine', 'replace', 'operations', 'service', 'demo', 'server', 'shell', 'cli', 'remote', 'backup', 'watch'],
    'web/ is neutral ground for both shells: it imports no room.',
  ),
  ...room(
    'server',
    ['replace', 'operations', 'demo', 'shell', 'cli', 'remote', 'backup', 'watch'],
    'The browser host imports the service and web/, not the desktop shell or the CLI.',
  ),
  ...room(
    'shell',
    ['replace', 'operations', 'demo', 'server', 'cli', 'remote', 'backup', 'watch'],
    'The desktop shell imports the service and web/, not the browser host or the CLI.',
  ),
  ...room('cli', ['shell', 'web'], 'The CLI does not import the desktop shell.'),
  // One door (issue 25): a command renders the service's answers (electron/cli/door.ts); it reaches
  // no engine room (inspect and scan keep their zod-free cold start through the service's lean
  // entries, electron/cli/coldStart.test.ts). Nor does it open an agent connection of its own: the
  // Session reaches hosts through the one connector hostDoor.ts hands it (agentClient.ts re-exports it).
  {
    files: ['electron/cli/**'],
    ignores: [...TESTS, ...CLI_AGENT_FILES],
    rules: {
      ...restrict([...cliBans, agentFromCli, agentClientFromCli]),
      'no-restricted-syntax': ['error', dynamicImportSelector, agentClientSelector, ...planKindComparisons],
    },
  },
  { files: ['electron/cli/hostDoor.ts'], rules: restrict([...cliBans, agentFromCli]) },
  { files: ['electron/cli/agentClient.ts'], rules: restrict(cliBans) },
  {
    // The CLI's tests drive the commands (and the app's Session, to compare); the agent's own answers
    // over a connection are tested in electron/remote/.
    files: TESTS.map((glob) => `electron/cli/${glob}`),
    rules: restrict([
      ban(['shell', 'web'], 'The CLI does not import the desktop shell.'),
      entries,
      ban(['remote/agentConnection'], CLI_AGENT),
    ]),
  },
  ...room(
    'remote',
    ['replace', 'operations', 'demo', 'web', 'server', 'shell', 'cli', 'backup', 'watch'],
    'remote/ carries the Session over ssh: it imports the service, the engine and shared/, never the CLI, a shell or a use case.',
  ),
  { files: ['electron/testing/**'], rules: restrict([entries]) },
  { files: ['electron/*.ts'], ignores: ['electron/ipc.ts', 'electron/preload.ts'], rules: restrict([testingOnlyFromTop]) },
  {
    files: ['electron/ipc.ts'],
    rules: restrict(
      [testingOnlyFromTop],
      [
        {
          name: 'electron',
          importNames: ['default', 'contextBridge', 'ipcRenderer'],
          message: 'Only electron/preload.ts touches contextBridge.',
        },
      ],
    ),
  },
  {
    files: ['electron/preload.ts'],
    rules: restrict(
      [testingOnlyFromTop],
      [{ name: 'electron', importNames: ['default', 'ipcMain'], message: 'Only electron/ipc.ts touches ipcMain.' }],
    ),
  },
  prettier,
);
