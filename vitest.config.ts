import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'shared/**/*.test.ts',
      'electron/**/*.test.ts',
      'renderer/**/*.test.ts',
      'renderer/**/*.test.tsx',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    globalSetup: ['scripts/vitestGlobalSetup.ts'],
    setupFiles: ['scripts/vitestWorkerSetup.ts'],
    // Vitest's default is one worker fewer than the cores: one, on the two cores CI and this machine
    // have. Most test time is spent waiting on child processes (the CLI, sshd, hash workers), so two
    // workers overlap that wait. TEST_WORKERS overrides it (1 to debug a test in isolation).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
