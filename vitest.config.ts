import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests wait for conditions, never for fixed times; these bounds only stop a hung test.
    // Tests that start engram processes take several times longer on a loaded machine.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for a condition (a page's status line, a count): its default of 1 s
    // is less than one search takes on a loaded machine.
    expect: { poll: { timeout: 60_000, interval: 50 } },
    pool: 'forks',
    maxWorkers: 2,
    // Each file opens its own databases; keep runs independent of order.
    sequence: { shuffle: false },
  },
});
