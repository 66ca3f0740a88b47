import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers in tests listen on port 0 and close on teardown; a hung one must not hang CI.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', new SummaryReporter()],
  },
});
