// Lint: typescript-eslint and react-hooks, Prettier for layout, and the rooms' import boundaries
// (electron/README.md). scripts/lintBoundaries.test.ts proves that a crossed boundary fails.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const room = (name) => [`../${name}/*`, `../../electron/${name}/*`];
const notFrom = (rooms, why) => ({ group: rooms.flatMap(room), message: why });
const testingOnly = notFrom(['testing'], 'electron/testing is for tests and the bench only.');
const electronIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer', 'contextBridge'],
  message: 'Only electron/ipc.ts touches ipcMain, only electron/preload.ts touches contextBridge and ipcRenderer.',
};

/** One no-restricted-imports rule per room: patterns it may not import, plus Electron's IPC objects. */
const restrict = (patterns, paths = [electronIpc]) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });
const nodeAndElectron = [
  { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'crypto'], message: 'shared/ and renderer/ run without Node.' },
  { group: ['electron', 'electron/*', 'electron-log', 'electron-log/*'], message: 'shared/ and renderer/ run without Electron.' },
];
const shells = ['service', 'server', 'shell', 'cli', 'operations'];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'test-results/', 'playwright-report/', 'build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: [electronIpc] }],
    },
  },
  {
    files: ['shared/**'],
    rules: restrict([...nodeAndElectron, { group: ['../electron/*', '../renderer/*', 'react', 'react-dom'], message: 'shared/ imports nothing of the other two.' }]),
  },
  {
    files: ['renderer/**'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['renderer/**'],
    rules: restrict([...nodeAndElectron, { group: ['../electron/*', '../../electron/*', '../../../electron/*'], message: 'renderer/ talks to the engine only through shared/api.ts.' }]),
  },
  { files: ['electron/engine/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom([...shells, 'replace', 'demo'], 'The engine imports no use case, shell, server or CLI.'), testingOnly]) },
  { files: ['electron/replace/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom([...shells, 'demo'], 'replace/ imports the engine and shared/ only.'), testingOnly]) },
  { files: ['electron/operations/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(['service', 'server', 'shell', 'cli'], 'Use cases know no adapter.'), testingOnly]) },
  { files: ['electron/service/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(['server', 'shell', 'cli'], 'The service knows no transport.'), testingOnly]) },
  { files: ['electron/demo/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(shells, 'The demo generator writes files; it knows no adapter.'), testingOnly]) },
  { files: ['electron/web/**'], rules: restrict([notFrom(['engine', 'replace', 'service', 'shell', 'server', 'cli', 'operations', 'demo'], 'web/ is neutral ground for both shells.')]) },
  { files: ['electron/server/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(['shell', 'cli'], 'The browser host does not import the desktop shell or the CLI.'), testingOnly]) },
  { files: ['electron/shell/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(['server', 'cli'], 'The desktop shell does not import the browser host or the CLI.'), testingOnly]) },
  { files: ['electron/cli/**'], ignores: ['**/*.test.ts'], rules: restrict([notFrom(['shell'], 'The CLI does not import the desktop shell.'), testingOnly]) },
  { files: ['electron/ipc.ts'], rules: restrict([], [{ name: 'electron', importNames: ['contextBridge', 'ipcRenderer'], message: 'Only the preload touches contextBridge.' }]) },
  { files: ['electron/preload.ts'], rules: restrict([], [{ name: 'electron', importNames: ['ipcMain'], message: 'Only electron/ipc.ts touches ipcMain.' }]) },
  prettier,
);
