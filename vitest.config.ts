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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
