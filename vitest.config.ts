import { defineConfig } from 'vitest/config';

// Files that must not share a worker's module cache with other files: a module mock (vi.mock
// replaces node:fs for the modules this file loads) and the renderer's, whose DOM, React Testing
// Library's cleanup hook and jsdom environment are per file.
const ISOLATED = ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx', 'electron/replace/fsOpsWriteFailure.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['scripts/vitestGlobalSetup.ts'],
    setupFiles: ['scripts/vitestWorkerSetup.ts'],
    // Vitest's default is one worker fewer than the cores: one, on the two cores CI and this machine
    // have. Most test time is spent waiting on child processes (the CLI, sshd, hash workers), so two
    // workers overlap that wait. TEST_WORKERS overrides it (1 to debug a test in isolation).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'engine',
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ISOLATED,
          // The engine's test files share each worker's modules: importing them again for every file
          // was 70 s of the suite's 235 s on two cores. They set no module mock, and each one restores
          // the environment variables and timers it changes.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
