import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The bench's own tests live beside it (bench/test/), the rest under test/, one folder per door.
    include: ['test/**/*.test.ts', 'bench/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
