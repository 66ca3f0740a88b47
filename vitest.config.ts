import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers in tests listen on port 0 and close on teardown; a hung one must not hang CI.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default'],
  },
});
