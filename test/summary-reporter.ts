import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the plain line "N passed, N failed" that CI reads to know tests ran. A file
 * that failed outside its tests (a set-up or tear-down hook, an import) counts as one failure
 * too: its tests may all have passed, and "0 failed" on a failed run would mislead whoever reads
 * the line.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // Failed with no test failing: a hook or the import did.
      failed += failedHere === 0 && module.state() === 'failed' ? 1 : failedHere;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
