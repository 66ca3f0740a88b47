import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The companion serves the card frame's built stylesheet as text (`?raw`, src/server/checkout/card-frame.ts);
    // Vitest empties CSS it does not process.
    css: { include: [/paydrop-card-frame\.css/] },
    // Servers in tests listen on port 0 and close on teardown; a hung one must not hang CI.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: ['default', new SummaryReporter()],
  },
});
